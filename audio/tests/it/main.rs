//! The integration tests of `gripline-audio`, linked as one test binary (`it`), one module per
//! former test file. `no_alloc.rs` keeps a binary of its own: it installs a counting global
//! allocator for the whole process.

mod synth_behaviour;
