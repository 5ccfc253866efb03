//! Large arrays for the solver's random access: backed by transparent huge pages
//! where the system offers them, so that the random reads and writes over gigabytes
//! do not each pay a page-table walk.

/// A vector of `n` copies of `fill`, asking the kernel (Linux) for huge pages before
/// the memory is first touched. Elsewhere, or when the kernel declines, an ordinary
/// vector.
pub fn filled_vec<T: Copy + Send + Sync>(n: usize, fill: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(v.as_mut_ptr() as *mut u8, n * std::mem::size_of::<T>());
    v.resize(n, fill);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let start = (ptr as usize).div_ceil(HUGE) * HUGE;
    let end = (ptr as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: the range lies inside an allocation we own; madvise with
        // MADV_HUGEPAGE only changes how the kernel backs it, never its contents.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// Asks the CPU to bring the cache line of `x` in, ahead of a read or write.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; any address is allowed.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Asks the CPU to bring in the cache lines of `items`: one [`prefetch`] every
/// 64 bytes (a cache line) from its first element.
#[inline]
pub fn prefetch_slice<T>(items: &[T]) {
    /// Bytes in one cache line of the x86-64 CPUs this runs on.
    const LINE: usize = 64;
    for x in items
        .iter()
        .step_by((LINE / std::mem::size_of::<T>()).max(1))
    {
        prefetch(x);
    }
}
