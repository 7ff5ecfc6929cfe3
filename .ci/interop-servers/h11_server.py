#!/usr/bin/env python3
"""The second server of Baton's interop tests (.ci/interop): an HTTP/1.1 server whose framing
is h11's (a Python implementation of HTTP/1.1 that no one on Baton wrote). This file only routes:
h11 parses every request (Content-Length or chunked) and frames every response (chunked when no
length is given, as h11 chooses for an HTTP/1.1 peer; close-delimited where a route asks h11 to
answer as to an HTTP/1.0 peer).

Routes (a `t` query item names the test; the requests of each `t` are recorded):
  POST /echo            the body back, chunked in pieces of varied sizes, with a trailer;
                        X-Request-Framing / -Length / -SHA256 say how the body came
  GET  /chunked?size=N  N bytes of the pattern i % 251, chunked in pieces of varied sizes
  GET  /events?count=N[&cut-after=K][&framing=close]
                        text/event-stream: events 1...N (`id: i`, `data: {"i": i}`), split
                        into chunks anywhere; after Last-Event-ID: the events after it. With
                        cut-after (and no Last-Event-ID), K events, half of the next, and the
                        connection closed: chunked (no last chunk) or close-delimited
  GET  /lines?count=N[&cut-after=K][&framing=close]
                        application/x-ndjson, likewise, one {"i": i, ...} a line
  GET  /requests?t=T    what the requests of T were, as JSON

Usage: h11_server.py --port-file FILE   (listens on 127.0.0.1, on a port the system picks)
"""
import argparse
import hashlib
import json
import os
import socket
import socketserver
import sys
import threading
import urllib.parse

import h11

# The sizes of the pieces a body is sent in, in turn: chunk boundaries fall anywhere.
PIECE_SIZES = [1, 3, 17, 64, 5, 1000, 2, 8192]

records = {}
records_lock = threading.Lock()


def pattern(count):
    whole, rest = divmod(count, 251)
    block = bytes(range(251))
    return block * whole + block[:rest]


def pieces(data):
    start, index = 0, 0
    while start < len(data):
        size = PIECE_SIZES[index % len(PIECE_SIZES)]
        yield data[start:start + size]
        start += size
        index += 1


class Exchange:
    """One request on a connection, and the means to answer it through h11."""

    def __init__(self, connection, sock, request, body):
        self.entry = None
        self.connection = connection
        self.sock = sock
        self.request = request
        self.body = body
        target = request.target.decode("ascii")
        parsed = urllib.parse.urlsplit(target)
        self.path = parsed.path
        self.query = dict(urllib.parse.parse_qsl(parsed.query))
        self.headers = {name.decode("ascii").lower(): value.decode("latin-1") for name, value in request.headers}

    def note(self, **fields):
        """Adds `fields` to this request's record, if it has one."""
        if self.entry is not None:
            with records_lock:
                self.entry.update(fields)

    def send(self, event):
        data = self.connection.send(event)
        if data:
            self.sock.sendall(data)

    def respond(self, status, headers, body=b"", chunked=False, trailers=()):
        fields = [(name.encode("ascii"), value.encode("latin-1")) for name, value in headers]
        if not chunked:
            fields.append((b"content-length", str(len(body)).encode("ascii")))
        self.send(h11.Response(status_code=status, headers=fields))
        for piece in (pieces(body) if chunked else [body]):
            if piece:
                self.send(h11.Data(data=piece))
        self.send(h11.EndOfMessage(headers=[(n.encode("ascii"), v.encode("ascii")) for n, v in trailers]))

    def stream(self, content_type, whole, cut_at, close_delimited):
        """Sends `whole` in pieces; when `cut_at` is given, only its first `cut_at` bytes, and
        then closes the connection without ending the body."""
        if close_delimited:
            # h11 frames an answer of unknown length to an HTTP/1.0 peer by closing the
            # connection (no Content-Length, no chunking, `Connection: close`).
            self.connection.their_http_version = b"1.0"
        self.send(h11.Response(status_code=200, headers=[(b"content-type", content_type.encode("ascii")), (b"cache-control", b"no-store")]))
        self.note(response="close-delimited" if close_delimited else "chunked", cutAt=cut_at, length=len(whole))
        sent = whole if cut_at is None else whole[:cut_at]
        for piece in pieces(sent):
            self.send(h11.Data(data=piece))
        if cut_at is not None:
            return "cut"
        self.send(h11.EndOfMessage())
        return None


def framing_of(request):
    names = {name.lower() for name, _ in request.headers}
    if b"transfer-encoding" in names:
        return "chunked"
    if b"content-length" in names:
        return "content-length"
    return "none"


def record(exchange):
    token = exchange.query.get("t")
    if token is None:
        return
    entry = {
        "method": exchange.request.method.decode("ascii"),
        "path": exchange.path,
        "target": exchange.request.target.decode("ascii"),
        "headers": exchange.headers,
        "framing": framing_of(exchange.request),
        "bodyLength": len(exchange.body),
        "bodySHA256": hashlib.sha256(exchange.body).hexdigest(),
    }
    with records_lock:
        records.setdefault(token, []).append(entry)
    exchange.entry = entry


def events_text(first, last):
    text = "retry: 10\n: served by h11\n\n"
    for i in range(first, last + 1):
        text += "id: %d\ndata: {\"i\": %d}\n\n" % (i, i)
    return text


def lines_text(first, last):
    text = ""
    for i in range(first, last + 1):
        text += json.dumps({"i": i, "name": "line %d" % i}) + "\n"
        if i % 3 == 0:
            text += "\n"
    return text


def route(exchange):
    """Answers one request; returns "cut" when the connection must close without more."""
    path, query = exchange.path, exchange.query
    if path == "/requests":
        with records_lock:
            body = json.dumps(records.get(query.get("t", ""), [])).encode("utf-8")
        exchange.respond(200, [("content-type", "application/json")], body)
    elif path == "/echo" and exchange.request.method == b"POST":
        body = bytes(exchange.body)
        exchange.respond(200, [
            ("content-type", "application/octet-stream"),
            ("x-request-framing", framing_of(exchange.request)),
            ("x-request-length", str(len(body))),
            ("x-request-sha256", hashlib.sha256(body).hexdigest()),
        ], body, chunked=True, trailers=[("x-body-sha256", hashlib.sha256(body).hexdigest())])
    elif path == "/chunked":
        body = pattern(int(query.get("size", "1000")))
        exchange.respond(200, [("content-type", "application/octet-stream")], body, chunked=True,
                         trailers=[("x-body-sha256", hashlib.sha256(body).hexdigest())])
    elif path in ("/events", "/lines"):
        count = int(query.get("count", "5"))
        resumed_after = exchange.headers.get("last-event-id")
        first = int(resumed_after) + 1 if resumed_after else 1
        cut_after = query.get("cut-after")
        cut_at = None
        if path == "/events":
            make, content_type = events_text, "text/event-stream"
        else:
            make, content_type = lines_text, "application/x-ndjson"
        whole = make(first, count).encode("utf-8")
        if cut_after is not None and resumed_after is None:
            # K whole elements, then half of the next.
            kept = len(make(first, int(cut_after)).encode("utf-8"))
            following = make(int(cut_after) + 1, int(cut_after) + 1)
            following = following.split("\n\n", 1)[-1] if path == "/events" else following
            cut_at = kept + len(following.encode("utf-8")) // 2
        return exchange.stream(content_type, whole, cut_at, query.get("framing") == "close")
    else:
        exchange.respond(404, [("content-type", "text/plain")], b"no such route\n")
    return None


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        sock = self.request
        sock.settimeout(60)
        connection = h11.Connection(h11.SERVER)
        try:
            while True:
                event = self.next_event(connection)
                if not isinstance(event, h11.Request):
                    return
                body = bytearray()
                while True:
                    part = self.next_event(connection)
                    if isinstance(part, h11.Data):
                        body += part.data
                    elif isinstance(part, h11.EndOfMessage):
                        break
                    else:
                        return
                exchange = Exchange(connection, sock, event, body)
                record(exchange)
                if route(exchange) == "cut":
                    return
                if connection.our_state is h11.MUST_CLOSE or connection.their_state is h11.MUST_CLOSE:
                    return
                connection.start_next_cycle()
        except (h11.RemoteProtocolError, ConnectionError, socket.timeout) as error:
            print("h11_server: %s" % error, file=sys.stderr, flush=True)
        finally:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def next_event(self, connection):
        while True:
            event = connection.next_event()
            if event is not h11.NEED_DATA:
                return event
            connection.receive_data(self.request.recv(65536))


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    arguments = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    with open(arguments.port_file + ".part", "w") as file:
        file.write(str(server.server_address[1]))
    os.rename(arguments.port_file + ".part", arguments.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
