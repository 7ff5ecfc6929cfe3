#!/usr/bin/env python3
"""A relay in front of nginx for Baton's interop tests (.ci/interop) that cuts a download
midway, once: the first connection whose first request's target has a `cut=N` query item, per
distinct target, is closed after N bytes of the answer have gone to the client; every other
connection is relayed whole, both ways. Only the first request of a connection is looked at.

Each connection's end is printed to stdout: `relay: connection C, GET TARGET: B bytes to the
client (cut)`.

Usage: cutting_relay.py --upstream PORT --port-file FILE   (both on 127.0.0.1)
"""
import argparse
import asyncio
import os
import re
import sys

seen_targets = set()
connections = 0


async def pipe(reader, writer, limit=None):
    """Copies until end of input, or until `limit` bytes went; returns the bytes copied."""
    copied = 0
    try:
        while limit is None or copied < limit:
            data = await reader.read(65536 if limit is None else min(65536, limit - copied))
            if not data:
                break
            writer.write(data)
            await writer.drain()
            copied += len(data)
        if limit is None and writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        pass
    return copied


async def relay(client_reader, client_writer, upstream_port):
    global connections
    connections += 1
    number = connections
    try:
        head = await client_reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        client_writer.close()
        return
    request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = request_line.split(" ")
    target = parts[1] if len(parts) > 1 else ""
    cut = None
    match = re.search(r"[?&]cut=(\d+)", target)
    if match and target not in seen_targets:
        seen_targets.add(target)
        cut = int(match.group(1))
    upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
    upstream_writer.write(head)
    up = asyncio.ensure_future(pipe(client_reader, upstream_writer))
    down = await pipe(upstream_reader, client_writer, cut)
    print("relay: connection %d, %s: %d bytes to the client%s" % (number, request_line, down, " (cut)" if cut is not None else ""), flush=True)
    up.cancel()
    for writer in (client_writer, upstream_writer):
        writer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", type=int, required=True)
    parser.add_argument("--port-file", required=True)
    arguments = parser.parse_args()
    server = await asyncio.start_server(lambda r, w: relay(r, w, arguments.upstream), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    with open(arguments.port_file + ".part", "w") as file:
        file.write(str(port))
    os.rename(arguments.port_file + ".part", arguments.port_file)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
