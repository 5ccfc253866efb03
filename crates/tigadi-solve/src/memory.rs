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
