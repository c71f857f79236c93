//! Telemetry out: Live for Speed's OutGauge (dashboards) and OutSim (motion rigs) UDP
//! packets, byte for byte to their published layouts (LFS `InSim.txt` and `OutSimPack.txt`),
//! so that SimHub-style dashboards, bass-shaker and motion software read Gripline as they
//! read LFS or BeamNG.
//!
//! - [`car_facts`]: what the packets need to know about the car (its code, redline, tank);
//! - [`outgauge`] and [`outsim`]: the encoders (a snapshot in, the packet's bytes out);
//! - [`gripline_stream`]: Gripline's own versioned packet with every physics figure, per
//!   wheel included (`docs/telemetry-stream.md`), up to the physics rate;
//! - [`sender`]: the sender thread and the sim thread's [`crate::observer::TickObserver`] in
//!   front of it (a wait-free handoff: the tick never touches a socket), and the headless
//!   runner's observer that sends as it steps.
//!
//! Quantities Gripline does not model (engine and oil temperatures, oil pressure, turbo
//! boost) are sent as 0, never invented.

pub mod car_facts;
pub mod gripline_stream;
pub mod outgauge;
pub mod outsim;
pub mod sender;

pub use car_facts::CarFacts;
pub use sender::{
    TelemetryObserver, TelemetrySender, TelemetryTap, TelemetryTargets, parse_destination,
};
