#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A connected or listening TCP socket on 127.0.0.1: a thin, bounded-time wrapper over POSIX calls.
///
/// Every blocking call waits with `poll` for at most a given time, so a server thread can never
/// hang on a client that stops talking.
final class Socket {
    let descriptor: Int32
    private var isClosed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        #if canImport(Darwin)
        // Darwin has no MSG_NOSIGNAL: ask for EPIPE instead of SIGPIPE on the socket itself.
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit { close() }

    /// Makes a listening socket bound to 127.0.0.1 on an ephemeral port; returns it and the port.
    static func listenOnLoopback(backlog: Int32 = 128) throws -> (Socket, UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw LoopbackServerError.system("socket", errno) }
        let listener = Socket(descriptor: fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0  // the kernel picks a free port
        address.sin_addr.s_addr = inet_addr("127.0.0.1")  // loopback only, never any other address
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw LoopbackServerError.system("bind", errno) }
        guard listen(fd, backlog) == 0 else { throw LoopbackServerError.system("listen", errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw LoopbackServerError.system("getsockname", errno) }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// Waits up to `timeout` for a connection; nil on timeout or error.
    func accept(timeout: TimeInterval) -> Socket? {
        guard waitFor(events: Int16(POLLIN), timeout: timeout) else { return nil }
        #if canImport(Glibc)
        let fd = Glibc.accept(descriptor, nil, nil)
        #else
        let fd = Darwin.accept(descriptor, nil, nil)
        #endif
        return fd >= 0 ? Socket(descriptor: fd) : nil
    }

    /// Whether `events` became ready within `timeout`.
    func waitFor(events: Int16, timeout: TimeInterval) -> Bool {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
        return poll(&entry, 1, milliseconds) > 0 && entry.revents != 0
    }

    /// Reads what is available (up to `capacity` bytes) within `timeout`; nil when the peer closed,
    /// on error or on timeout.
    func receive(capacity: Int, timeout: TimeInterval) -> [UInt8]? {
        guard waitFor(events: Int16(POLLIN), timeout: timeout) else { return nil }
        var buffer = [UInt8](repeating: 0, count: capacity)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, capacity, 0) }
        guard count > 0 else { return nil }
        return Array(buffer[0..<count])
    }

    /// Whether the peer has closed its side (a zero-byte read is pending) or the socket failed.
    func peerHasClosed() -> Bool {
        guard waitFor(events: Int16(POLLIN), timeout: 0) else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Sends all of `bytes`, waiting at most `timeout` for room each time; false if the peer is gone.
    func send(_ bytes: ArraySlice<UInt8>, timeout: TimeInterval) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            guard waitFor(events: Int16(POLLOUT), timeout: timeout) else { return false }
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let sent = bytes[offset...].withUnsafeBytes {
                #if canImport(Glibc)
                Glibc.send(descriptor, $0.baseAddress, $0.count, flags)
                #else
                Darwin.send(descriptor, $0.baseAddress, $0.count, flags)
                #endif
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Closes the socket (once).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Ends both directions now, so a thread blocked in `poll` on it wakes up.
    func shutdownBoth() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
