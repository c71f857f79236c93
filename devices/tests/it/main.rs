//! The integration tests of `gripline-devices`, linked as one test binary (`it`), one module
//! per former test file: the evdev backends on a scripted kernel and the force-feedback
//! latency of each backend, with no device attached.

mod evdev_scripted;
mod ffb_latency;
