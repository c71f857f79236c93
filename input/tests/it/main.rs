//! The integration tests of `gripline-input`, linked as one test binary (`it`), one module per
//! former test file. `ffb_emergency.rs` keeps a binary of its own: its child processes install
//! the product's panic hook and signal handlers, which are process-wide.

mod ffb_safety;
mod ffb_writer;
mod mapper;
