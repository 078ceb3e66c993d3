//! The `later` row's module.

/// `2x`, computed here.
#[target_feature(enable = "sse2")]
pub(crate) fn twice(x: u32) -> (&'static str, u32) {
    ("later", 2 * x)
}

/// `N x`, computed here.
#[target_feature(enable = "sse2")]
pub(crate) fn scaled<const N: u32>(x: u32) -> (&'static str, u32) {
    ("later", N * x)
}
