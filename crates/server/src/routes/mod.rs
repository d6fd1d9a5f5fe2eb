//! HTTP routes, one module per area, each with a `configure` function.

pub(crate) mod health;
pub(crate) mod not_found;
