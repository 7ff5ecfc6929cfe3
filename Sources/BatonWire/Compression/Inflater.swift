/// Undoes one response body's content coding, incrementally: bytes in as they arrive, bytes out in chunks.
///
/// `gzip` is RFC 1952 (members one after another are decoded in turn); `deflate` is zlib's
/// format (RFC 1950) as RFC 9110 says, or raw deflate (RFC 1951) when the body does not start
/// with a zlib header, since servers send both. Memory stays at about 100 KiB whatever the body
/// (see ``DeflateDecoder``), and no more than `limit` bytes are ever passed on.
///
/// After `feed` throws, the inflater is spent: further calls throw again.
package struct Inflater: Sendable {
    package enum Format: Sendable { case gzip, deflate }

    package let format: Format
    /// The most decompressed bytes passed on, in all.
    package let limit: Int

    private enum Stage: Sendable {
        case gzipHeader(GzipHeader)
        case zlibHeader(first: UInt8?)
        case body
        /// The trailer's bytes so far, least significant first.
        case trailer(value: UInt64, count: Int)
        case ended
        case failed(InflateError)
    }

    private enum Framing: Sendable { case gzip, zlib, raw }

    private var stage: Stage
    private var framing: Framing
    private var decoder = DeflateDecoder()
    private var tally = OutputTally()

    package init(format: Format, limit: Int) {
        self.format = format
        self.limit = max(0, limit)
        switch format {
        case .gzip:
            stage = .gzipHeader(GzipHeader(isFirstMember: true))
            framing = .gzip
        case .deflate:
            stage = .zlibHeader(first: nil)
            framing = .zlib
        }
    }

    /// Whether the stream has ended (trailer verified).
    package var isFinished: Bool {
        if case .ended = stage { return true }
        return false
    }

    /// Decodes `input` (any amount, possibly 1 byte), calling `output` with decompressed chunks
    /// (each at most 64 KiB) as they are produced. Throws ``InflateError`` on malformed data or
    /// when the output would pass `limit` (before passing on any byte past it); an error thrown
    /// by `output` propagates.
    package mutating func feed(_ input: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void) throws {
        if case .failed(let error) = stage { throw error }
        do {
            try run(input, output: output)
        } catch let error as InflateError {
            stage = .failed(error)
            throw error
        } catch {
            stage = .failed(InflateError(.truncated, "the body was abandoned when its output's consumer failed"))
            throw error
        }
    }

    /// Called at end of body: throws `.truncated` unless the stream (and its checksum trailer) is complete.
    package func finish() throws(InflateError) {
        switch stage {
        case .ended: return
        case .failed(let error): throw error
        default: throw .truncated
        }
    }

    private mutating func run(_ input: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void) throws {
        var position = 0
        var tally = self.tally
        defer { self.tally = tally }
        let limit = self.limit
        func emit(_ chunk: UnsafeRawBufferPointer) throws {
            guard chunk.count <= limit - tally.produced else { throw InflateError.tooLarge(limit: limit) }
            try output(chunk)
            tally.record(chunk)
        }

        while true {
            switch stage {
            case .gzipHeader(var header):
                var complete = false
                while !complete {
                    guard let byte = decoder.bits.nextByte(from: input, at: &position) else {
                        stage = .gzipHeader(header)
                        return
                    }
                    complete = try header.take(byte)
                }
                decoder.reset()
                tally.startMember(.crc32)
                stage = .body
            case .zlibHeader(let first):
                guard let byte = decoder.bits.nextByte(from: input, at: &position) else { return }
                guard let first else {
                    stage = .zlibHeader(first: byte)
                    continue
                }
                try startDeflate(first, byte, tally: &tally)
                stage = .body
            case .body:
                try decoder.decode(input, at: &position, output: emit)
                try decoder.flush(emit)
                guard decoder.isAtEnd else { return }
                stage = .trailer(value: 0, count: 0)
            case .trailer(var value, var count):
                let length = framing == .gzip ? 8 : framing == .zlib ? 4 : 0
                while count < length {
                    guard let byte = decoder.bits.nextByte(from: input, at: &position) else {
                        stage = .trailer(value: value, count: count)
                        return
                    }
                    value |= UInt64(byte) << (8 * count)
                    count += 1
                }
                try check(trailer: value, tally: tally)
                stage = .ended
            case .ended:
                guard decoder.bits.hasByte(in: input, at: position) else { return }
                switch framing {
                case .gzip: stage = .gzipHeader(GzipHeader(isFirstMember: false))
                case .zlib: throw InflateError.trailingData(after: "zlib stream")
                case .raw: throw InflateError.trailingData(after: "deflate stream")
                }
            case .failed(let error):
                throw error
            }
        }
    }

    /// Decides between zlib and raw deflate from the body's first two bytes (RFC 1950 §2.2: a
    /// zlib header names method 8 with a window of at most 32 KiB, and is a multiple of 31).
    private mutating func startDeflate(_ first: UInt8, _ second: UInt8, tally: inout OutputTally) throws {
        let isZlib = first & 0x0f == 8 && first >> 4 <= 7 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
        decoder.reset()
        if isZlib {
            guard second & 0x20 == 0 else {
                throw InflateError.invalidHeader(
                    "the zlib header asks for a preset dictionary, which HTTP bodies cannot have")
            }
            framing = .zlib
            tally.startMember(.adler32)
        } else {
            framing = .raw
            decoder.bits.pushBack(first, second)
            tally.startMember(.none)
        }
    }

    private func check(trailer: UInt64, tally: OutputTally) throws(InflateError) {
        switch framing {
        case .gzip:
            guard UInt32(truncatingIfNeeded: trailer) == tally.crc.value else {
                throw InflateError(.checksumMismatch, "the gzip body's CRC-32 does not match its contents")
            }
            guard UInt32(truncatingIfNeeded: trailer >> 32) == tally.memberSize else {
                throw InflateError(.lengthMismatch, "the gzip body's length field (ISIZE) does not match its contents")
            }
        case .zlib:
            guard UInt32(truncatingIfNeeded: trailer).byteSwapped == tally.adler.value else {
                throw InflateError(.checksumMismatch, "the zlib body's Adler-32 does not match its contents")
            }
        case .raw:
            break
        }
    }
}

/// What the inflater counts of its output: the total against the limit, and the current
/// member's size and checksum.
private struct OutputTally: Sendable {
    package enum Checksum: Sendable { case crc32, adler32, none }

    package var produced = 0
    /// The member's size modulo 2^32, as gzip's ISIZE has it.
    package var memberSize: UInt32 = 0
    package var crc = CRC32()
    package var adler = Adler32()
    package var checksum = Checksum.none

    package mutating func startMember(_ checksum: Checksum) {
        self.checksum = checksum
        memberSize = 0
        crc = CRC32()
        adler = Adler32()
    }

    package mutating func record(_ chunk: UnsafeRawBufferPointer) {
        produced += chunk.count
        memberSize &+= UInt32(truncatingIfNeeded: chunk.count)
        switch checksum {
        case .crc32: crc.update(chunk)
        case .adler32: adler.update(chunk)
        case .none: break
        }
    }
}
