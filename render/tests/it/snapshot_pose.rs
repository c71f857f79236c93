//! The renderer's car matches the physics: after a settled physics run on the circuit, every
//! wheel centre the snapshot reports lies where the generated car model has its wheel (inside
//! its arch), and the pose built from the snapshot places the wheels there. No GPU needed.

use glam::DVec3;
use gripline_formats::assets;
use gripline_formats::track_file::load_track;
use gripline_formats::vehicle_file::load_vehicle;
use gripline_physics::controls::Controls;
use gripline_render::{SpinAngles, VehiclePose, VehicleVisual};

#[test]
fn settled_physics_wheels_sit_in_the_model_s_arches() {
    let track = load_track(&assets::resolve_track("circuit").expect("track")).expect("load track");
    for name in ["corvette-c5", "hatchback-fwd", "rally-awd"] {
        let loaded =
            load_vehicle(&assets::resolve_vehicle(name).expect("vehicle")).expect("load vehicle");
        let visual = VehicleVisual::from_params(&loaded.params);
        let mut vehicle = loaded.build().expect("build");
        let sample = track.mesh.centre_line.sample_at(100.0).expect("station");
        let heading = sample.tangent.y.atan2(sample.tangent.x);
        vehicle.reset_to(vehicle.pose_at_rest(sample.position, sample.normal, heading));
        let controls = Controls {
            brake: 1.0,
            ..Controls::default()
        };
        let mut spin = SpinAngles::default();
        for _ in 0..2000 {
            vehicle.step(&controls, &track.mesh, 0.001);
            spin.advance(vehicle.snapshot(), 0.001);
        }
        let snapshot = vehicle.snapshot();
        let pose = VehiclePose::from_snapshot(snapshot, &spin);
        for i in 0..4 {
            let body = pose.orientation.inverse() * (pose.wheels[i].centre_world - pose.position);
            let model = visual.static_wheel_centre_body(i);
            let error = (body - model).length();
            assert!(
                error < 0.08,
                "{name} wheel {i}: physics {body:.3} vs model {model:.3} ({error:.3} m apart)"
            );
            let drawn = pose.world_from_wheel(i).transform_point3(DVec3::ZERO);
            assert!((drawn - snapshot.wheels[i].centre_position).length() < 1e-9);
        }
    }
}
