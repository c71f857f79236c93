//! Integration tests of `gripline-host`: one test binary (`docs/architecture.md`, "Tests").

mod drive;
mod ffb_reconnect;
mod sound_live;
