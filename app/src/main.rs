//! `gripline`: the simulator's binary.
fn main() {}
