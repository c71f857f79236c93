//! The default vehicle parameters: a Chevrolet Corvette C5 coupe. Figures from published
//! specifications are marked *spec*; the rest are engineering estimates, each with the method
//! used to get it.

use crate::powertrain::PowertrainParams;

use super::params::{
    AeroParams, AidParams, AxleParams, BodyParams, BrakeParams, ChassisParams, SteeringParams,
    SuspensionParams, VehicleParams, WheelParams,
};

impl Default for VehicleParams {
    /// Chevrolet Corvette C5 coupe (1997-2004).
    ///
    /// *Spec* figures: curb mass 1472 kg (full tank) plus a 75 kg driver (ISO 2416's occupant,
    /// `mass_kg` is the mass with driver) = 1547 kg, 51/49 weight split, wheelbase 2.654 m, tracks
    /// 1.575 / 1.577 m, length 4.565 m, width 1.869 m, height 1.212 m, Cd 0.29, tyres
    /// P245/45ZR17 front and P275/40ZR18 rear, steering ratio 16.1:1.
    ///
    /// Estimates and their methods:
    /// - CG height 0.45 m: typical of a front-engined sports car of this height (0.37 of
    ///   the body height).
    /// - Frontal area 2.0 m²: 0.85 x width x height (1.869 x 1.212 = 2.27 m²), the usual
    ///   fill factor of a low coupe.
    /// - Inertia: radii of gyration. Yaw `k_z² = 0.9 a b` (dynamic index 0.9, typical of
    ///   passenger cars), pitch 0.95 of yaw, roll `k_x = 0.35 x track`. With a = 1.300 m,
    ///   b = 1.354 m: Izz = 2321, Iyy = 2205, Ixx = 445 kg·m².
    /// - Tyre radii: from the size codes, 245/45R17: 17 x 0.0127 + 0.245 x 0.45 = 0.326 m
    ///   unloaded, 0.315 m loaded; 275/40R18: 0.351 m unloaded, 0.339 m loaded.
    /// - Wheel spin inertia: tyre as a ring at 0.85 r (11 / 13 kg) plus a disc-like rim
    ///   (9 / 10 kg at 0.6 x rim radius squared) plus hub and disc: 0.9 front, 1.2 rear kg·m².
    /// - Springs: wheel rates for ride frequencies of 1.5 Hz front and 1.6 Hz rear on the
    ///   corner masses (373 / 359 kg): 33 and 36 kN/m. Droop travel equals the static
    ///   compression (no preload), bump travel 70 mm beyond static.
    /// - Dampers: about 0.3 (bump) and 0.65 (rebound) of critical below a 0.13 m/s knee,
    ///   half of that above.
    /// - Anti-roll bars: 25 / 12 kN/m, giving a roll gradient of about 2.1 deg/g with 58 %
    ///   of the roll stiffness at the front.
    /// - Relaxation lengths: longitudinal 0.15 m and lateral 0.35 m, i.e. about half and one
    ///   wheel radius, the usual range for car tyres (Pacejka, *Tire and Vehicle Dynamics*,
    ///   chapter 7).
    /// - Rolling resistance: VR-Design Studio's 0.004 + 0.090 s/km.
    /// - Unsprung mass 43 kg front, 49 kg rear, summed from typical part weights: cast
    ///   aluminium wheel 9.5 / 10.5 kg, run-flat tyre 12 / 14 kg, 32 cm disc 7 kg, caliper
    ///   3.5 / 3 kg, hub and bearing 4 / 4.5 kg, aluminium knuckle 3 kg, half of the
    ///   aluminium arms, damper and transverse leaf spring 4 kg, at the rear half a drive
    ///   shaft 3 kg. The tyre's vertical stiffness and damping come from the `.tir` files.
    /// - Brakes: 8 kN·m total (enough to lock every wheel on dry asphalt), 62 % front.
    /// - Steering: lock 450 deg each side, 60 % Ackermann, 30 mm trail (6 deg caster on a
    ///   0.315 m wheel gives 33 mm), 10 mm scrub radius, 90 % efficiency, no power assistance
    ///   (force feedback normalises it away). Caster 7 deg (the figure commonly quoted for
    ///   the C5's factory alignment, not checked against a GM manual) and kingpin inclination
    ///   11 deg (a typical value for a double-wishbone front; no published C5 figure found),
    ///   as in `assets/vehicles/corvette-c5.ron`; the 30 mm trail then stands for a hub
    ///   about 9 mm ahead of the axis.
    /// - Aero lift: no published figures; zero.
    fn default() -> Self {
        let front_wheel = WheelParams {
            radius_m: 0.315,
            spin_inertia_kg_m2: 0.9,
            tyre_pressure_pa: 2.07e5,
            relaxation_length_longitudinal_m: Some(0.15),
            relaxation_length_lateral_m: Some(0.35),
            contact_damping_ratio: 0.5,
            low_speed_m_per_s: 3.0,
            rolling_resistance_c0: 0.004,
            rolling_resistance_c1_s_per_m: 0.090 / 1000.0,
            unsprung_mass_kg: Some(43.0),
            tyre_vertical_stiffness_n_per_m: None,
            tyre_vertical_damping_n_s_per_m: None,
        };
        let rear_wheel = WheelParams {
            radius_m: 0.339,
            spin_inertia_kg_m2: 1.2,
            unsprung_mass_kg: Some(49.0),
            ..front_wheel.clone()
        };
        Self {
            name: "Chevrolet Corvette C5".to_owned(),
            front_tyre: "corvette_c5_front".to_owned(),
            rear_tyre: "corvette_c5_rear".to_owned(),
            chassis: ChassisParams {
                mass_kg: 1547.0,
                fuel_mass_kg: 53.6,
                wheelbase_m: 2.654,
                front_weight_fraction: 0.51,
                cg_height_m: 0.45,
                roll_inertia_kg_m2: 471.0,
                pitch_inertia_kg_m2: 2328.0,
                yaw_inertia_kg_m2: 2451.0,
            },
            body: BodyParams {
                length_m: 4.565,
                width_m: 1.869,
                height_m: 1.212,
                ground_clearance_m: 0.12,
                front_overhang_m: 1.0,
                contact_stiffness_n_per_m: 1.0e6,
                contact_damping_n_s_per_m: 1.5e4,
                contact_friction: 0.5,
            },
            front: AxleParams {
                track_m: 1.575,
                wheel: front_wheel,
                suspension: SuspensionParams {
                    spring_rate_n_per_m: 33_000.0,
                    spring_preload_n: 0.0,
                    travel_m: 0.18,
                    bump_damping_n_s_per_m: 2_100.0,
                    rebound_damping_n_s_per_m: 4_600.0,
                    damper_knee_m_per_s: 0.13,
                    fast_bump_damping_n_s_per_m: 1_050.0,
                    fast_rebound_damping_n_s_per_m: 2_300.0,
                    bump_stop_rate_n_per_m: 60_000.0,
                    bump_stop_length_m: 0.02,
                },
                anti_roll_bar_n_per_m: 25_000.0,
                static_camber_deg: -0.5,
                static_toe_deg: 0.05,
                camber_gain_deg_per_m: -15.0,
                roll_centre_height_m: 0.05,
                anti_pitch_fraction: 0.0,
            },
            rear: AxleParams {
                track_m: 1.577,
                wheel: rear_wheel,
                suspension: SuspensionParams {
                    spring_rate_n_per_m: 36_000.0,
                    spring_preload_n: 0.0,
                    travel_m: 0.17,
                    bump_damping_n_s_per_m: 2_200.0,
                    rebound_damping_n_s_per_m: 4_700.0,
                    damper_knee_m_per_s: 0.13,
                    fast_bump_damping_n_s_per_m: 1_100.0,
                    fast_rebound_damping_n_s_per_m: 2_350.0,
                    bump_stop_rate_n_per_m: 60_000.0,
                    bump_stop_length_m: 0.02,
                },
                anti_roll_bar_n_per_m: 12_000.0,
                static_camber_deg: -0.3,
                static_toe_deg: 0.1,
                camber_gain_deg_per_m: -10.0,
                roll_centre_height_m: 0.1,
                anti_pitch_fraction: 0.0,
            },
            steering: SteeringParams {
                ratio: 16.1,
                lock_deg: 450.0,
                ackermann: 0.6,
                caster_deg: 7.0,
                kingpin_inclination_deg: 11.0,
                mechanical_trail_m: Some(0.03),
                scrub_radius_m: 0.01,
                efficiency: 0.9,
                power_assist: 0.0,
            },
            brakes: BrakeParams {
                max_torque_n_m: 8_000.0,
                bias_front: 0.62,
                handbrake_torque_n_m: 1_000.0,
            },
            aids: AidParams::default(),
            aero: AeroParams {
                air_density_kg_per_m3: 1.225,
                drag_coefficient: 0.29,
                frontal_area_m2: 2.0,
                centre_of_pressure_x_m: 0.0,
                centre_of_pressure_height_m: 0.5,
                downforce_area_front_m2: 0.0,
                downforce_area_rear_m2: 0.0,
            },
            powertrain: PowertrainParams::default(),
            setup_ranges: super::setup::SetupRanges::new(),
        }
    }
}
