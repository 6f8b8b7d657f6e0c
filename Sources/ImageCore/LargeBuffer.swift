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

    /// Zero-filled memory for `byteCount` bytes (at least 1), 64-byte aligned; release it with
    /// ``ZeroedMemory/release()``. A large block on Linux is mapped straight from the kernel,
    /// whose fresh pages are zero already (and advised to be huge): the decoder's own pass that
    /// zeroed 18–36 MB of progressive coefficients per decode, on top of the kernel's, is gone.
    /// Otherwise it is ``allocate(byteCount:alignment:)`` and zeroed.
    package static func allocateZeroed(byteCount: Int) -> ZeroedMemory {
        let count = Swift.max(byteCount, 1)
        #if canImport(Glibc)
        if count >= hugePageThreshold {
            // Room to start at a 2 MiB boundary, so every whole 2 MiB page inside can be huge.
            let (mapped, overflow) = count.addingReportingOverflow(hugePageSize)
            // MAP_FAILED is (void *)-1, a macro Swift does not import.
            if !overflow, let base = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
               base != UnsafeMutableRawPointer(bitPattern: -1) {
                let address = UInt(bitPattern: base)
                let alignedStart = (address + UInt(hugePageSize - 1)) & ~UInt(hugePageSize - 1)
                if let start = UnsafeMutableRawPointer(bitPattern: alignedStart) {
                    adviseHugePages(start, byteCount: count)
                    return ZeroedMemory(pointer: start, mapping: (base, mapped))
                }
                munmap(base, mapped)
            }
        }
        #endif
        let memory = allocate(byteCount: count, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        return ZeroedMemory(pointer: memory, mapping: nil)
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

/// Memory from ``LargeBuffer/allocateZeroed(byteCount:)``: where it starts, and how to give it back.
package struct ZeroedMemory {
    /// The first byte (64-byte aligned).
    package let pointer: UnsafeMutableRawPointer
    /// The kernel mapping that holds it, when it was mapped directly; nil for a heap block.
    let mapping: (base: UnsafeMutableRawPointer, byteCount: Int)?

    /// Returns the memory (to the kernel, or to the heap).
    package func release() {
        #if canImport(Glibc)
        if let mapping {
            munmap(mapping.base, mapping.byteCount)
            return
        }
        #endif
        pointer.deallocate()
    }
}
