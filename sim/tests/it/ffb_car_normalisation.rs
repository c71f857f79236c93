//! Per-car normalisation of the steering torque through the rig, for every shipped car.

use crate::support::ffb as ffb_support;

use ffb_support::{MAX_NM, exact_settings};
use std::time::Duration;

use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::effects::FeelInput;
use gripline_input::ffb::recording::{Clock, ManualClock, RecordingBackend};
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_sim::realtime::rig::{FfbLink, Rig};
use gripline_sim::session::Session;

/// Per-car normalisation: every shipped car's reference column torque comes out at the
/// soft-clip knee of the user's maximum, so one gain suits every car; off, the physics'
/// N·m pass through unscaled.
#[test]
fn every_car_is_normalised_to_the_same_torque_at_its_reference() {
    use gripline_sim::realtime::rig::RigTorque;
    let mut references = Vec::new();
    for car in ["corvette-c5", "hatchback-fwd", "rally-awd"] {
        for normalise in [true, false] {
            let s = FfbSettings {
                normalise_car_torque: normalise,
                ..exact_settings()
            };
            let link = FfbLink {
                backend: Box::new(RecordingBackend::new(Clock::Manual(ManualClock::new()))),
                facts: FfbDeviceFacts {
                    peak_torque_nm: 20.0,
                    ..FfbDeviceFacts::no_device(&s)
                },
            };
            let mut rig = Rig::new(&Bindings::default(), &s, link);
            let session = Session::load(car, "flat").expect("shipped car");
            let feel = *session.steering_feel();
            rig.set_car(session.vehicle().params().steering.lock_deg, &feel);
            rig.start_ffb(Duration::ZERO);
            let reference = 0.5 * feel.peak_column_torque_nm;
            let tick = rig
                .ffb_tick(
                    Duration::from_millis(1),
                    Some(RigTorque::Car {
                        column_nm: reference,
                        feel: FeelInput::default(),
                    }),
                    0.0,
                    0.001,
                )
                .expect("recording backend");
            let torque = tick.step.expect("a step").torque_nm;
            let expected = if normalise {
                0.5 * s.soft_clip_knee * MAX_NM
            } else {
                reference.min(MAX_NM)
            };
            assert!(
                (torque - expected).abs() < 1e-9,
                "{car} normalise={normalise}: {torque} vs {expected}"
            );
            references.push(feel.peak_column_torque_nm);
        }
    }
    // The cars really differ, so the normalisation does something.
    let (lo, hi) = references
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), r| (lo.min(*r), hi.max(*r)));
    assert!(hi > 1.2 * lo, "{references:?}");
}
