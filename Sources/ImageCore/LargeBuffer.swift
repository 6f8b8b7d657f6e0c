#if canImport(Glibc)
import Glibc
#endif

/// Allocation of the large, short-lived planes a decode needs (coefficients, sample planes).
///
/// Why: a multi-megabyte plane freed at the end of a decode is often handed back to the kernel
/// by glibc (above its trim or mmap threshold), so the next decode faults every 4 KiB page in
/// again, zeroed by the kernel: about 8,000–11,000 faults per 3000×2000 progressive JPEG. On
/// Linux, where transparent huge pages are commonly set to `madvise`, asking for huge pages
/// makes that a handful of 2 MiB faults (NumPy does the same for its large arrays). Elsewhere
/// this is a plain aligned allocation.
package enum LargeBuffer {
    /// Planes at least this large are aligned to 2 MiB and advised to use huge pages.
    package static let hugePageThreshold = 4 << 20
    private static let hugePageSize = 2 << 20

    /// Uninitialised memory for `byteCount` bytes (at least 1), aligned to `alignment` or, for a
    /// large plane, to 2 MiB with huge pages requested. Release with `deallocate()`.
    package static func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let count = Swift.max(byteCount, 1)
        guard count >= hugePageThreshold else {
            return UnsafeMutableRawPointer.allocate(byteCount: count, alignment: alignment)
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: Swift.max(alignment, hugePageSize))
        // Advice only: a kernel without THP answers EINVAL, and the memory works the same.
        adviseHugePages(memory, byteCount: count)
        return memory
    }

    /// A byte array of `count` uninitialised bytes (the caller writes every byte before reading
    /// it) whose interior 2 MiB pages are advised to be huge when the array is large.
    package static func uninitializedBytes(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            if count >= hugePageThreshold, let base = buffer.baseAddress { adviseHugePages(UnsafeMutableRawPointer(base), byteCount: count) }
            initializedCount = count
        }
    }

    /// Advises huge pages for the whole 2 MiB pages inside `byteCount` bytes at `start`.
    private static func adviseHugePages(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if canImport(Glibc)
        let address = UInt(bitPattern: start)
        let alignedStart = (address + UInt(hugePageSize - 1)) & ~UInt(hugePageSize - 1)
        let end = (address + UInt(byteCount)) & ~UInt(hugePageSize - 1)
        guard end > alignedStart, let aligned = UnsafeMutableRawPointer(bitPattern: alignedStart) else { return }
        _ = madvise(aligned, Int(end - alignedStart), MADV_HUGEPAGE)
        #endif
    }
}
