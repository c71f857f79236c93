//! What several of the integration tests share.

pub mod barrier;
pub mod ffb;
pub mod full_check;
pub mod lap;
pub mod rim;
