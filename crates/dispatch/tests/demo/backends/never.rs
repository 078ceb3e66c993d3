//! The `never` row's module.

/// `2x`, computed here.
pub(crate) fn twice(x: u32) -> (&'static str, u32) {
    ("never", 2 * x)
}

/// `N x`, computed here.
pub(crate) fn scaled<const N: u32>(x: u32) -> (&'static str, u32) {
    ("never", N * x)
}
