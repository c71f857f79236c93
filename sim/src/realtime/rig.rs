//! The player's rig: input devices, the control mapper and the force-feedback output. It
//! outlives car and track swaps (the devices stay connected), so it is separate from the
//! [`super::Session`].
//!
//! Every tick the sim thread polls each input backend into a pre-allocated event buffer,
//! hands the events to the [`ControlMapper`] and takes one [`TickOutput`]; after the physics
//! step it sends the steering-column torque through the [`FfbOutput`] (pipeline, safety
//! gate, backend). In the app the FFB backend is an `FfbWriter` (an atomic store, latest
//! value wins) or a `NullBackend` without a force-feedback wheel; tests use a
//! `RecordingBackend`. Nothing here allocates per tick, except when a device connects.

use std::time::Duration;

use gripline_input::bindings::{ControlMapper, InputNotice, TickOutput};
use gripline_input::device::{InputBackend, InputEvent};
use gripline_input::ffb::backend::{FfbBackend, FfbError, NullBackend};
use gripline_input::ffb::device_facts::FfbDeviceFacts;
use gripline_input::ffb::effects::{FeelInput, auto_gain};
use gripline_input::ffb::output::{FfbOutput, FfbTick};
use gripline_input::ffb::params::PipelineParams;
use gripline_input::ffb::pipeline::{FfbInput, FfbPipeline, WheelMotion};
use gripline_input::ffb::safety::{FfbSafety, SafetyConfig, StopReason};
use gripline_input::ffb::soft_lock::SoftLock;
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::ffb_settings::FfbSettings;
use gripline_input::settings::soft_lock::{SoftLockSettings, SteeringLockMode};
use gripline_physics::vehicle::SteeringFeel;

use super::keyboard::{KeyboardSender, keyboard_channel};

/// Events handled per tick at most (the rest wait for the next tick).
pub const EVENTS_PER_TICK: usize = 256;
/// Input backends a rig holds at most (the list is reserved up front).
pub const MAX_INPUTS: usize = 8;
/// Ticks in the clipping meter's window (half a second).
const CLIP_WINDOW_TICKS: usize = 500;
/// Cut-off of the steering-wheel speed estimate for damping and friction (Hz).
const WHEEL_MOTION_CUTOFF_HZ: f64 = 30.0;

/// A boxed force-feedback backend the sim thread can own.
pub type BoxedFfb = Box<dyn FfbBackend + Send>;

/// An opened force-feedback device: its backend (in the app an `FfbWriter`) and its facts
/// (peak torque, invert, rotation), resolved together by the wheel set-up, the only place
/// that resolves them ([`FfbDeviceFacts::resolve`]).
pub struct FfbLink {
    /// The backend.
    pub backend: BoxedFfb,
    /// The device's facts.
    pub facts: FfbDeviceFacts,
}

impl FfbLink {
    /// No device: a [`NullBackend`], level 1 at the user's maximum.
    pub fn none(settings: &FfbSettings) -> Self {
        Self {
            backend: Box::new(NullBackend),
            facts: FfbDeviceFacts::no_device(settings),
        }
    }
}

impl std::fmt::Debug for FfbLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FfbLink")
            .field("facts", &self.facts)
            .finish_non_exhaustive()
    }
}

/// The torque a force-feedback tick renders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RigTorque {
    /// The car after a physics step: its steering-column torque (N·m, scaled by the user's
    /// gain and the car's strength) and what the effects read.
    Car {
        /// The column torque (N·m).
        column_nm: f64,
        /// The effects' input.
        feel: FeelInput,
    },
    /// A torque at the wheel itself (N·m), e.g. a settings-screen test effect.
    AtWheel(f64),
}

/// Input devices, mapper and force-feedback output (see the module docs).
pub struct Rig {
    mapper: ControlMapper,
    inputs: Vec<Box<dyn InputBackend + Send>>,
    events: Vec<InputEvent>,
    ffb: FfbOutput<BoxedFfb>,
    /// The device facts of the backend in `ffb`: they change only with the backend.
    facts: FfbDeviceFacts,
    /// Facts edited on the settings screen, in force while its tests play
    /// ([`Rig::preview_ffb_facts`]).
    preview_facts: Option<FfbDeviceFacts>,
    /// The user's force-feedback settings in force (boxed: they arrive boxed by command).
    settings: Box<FfbSettings>,
    /// The car's steering-wheel lock (degrees each side), for the soft lock and the lock
    /// mode; `None` until a car is set.
    car_lock_deg: Option<f64>,
    /// The car's reference column torque (N·m), for the per-car normalisation.
    car_reference_nm: Option<f64>,
    wheel_motion: WheelMotion,
}

impl std::fmt::Debug for Rig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rig")
            .field("inputs", &self.inputs.len())
            .finish_non_exhaustive()
    }
}

impl Rig {
    /// A rig with `bindings`, force feedback per `settings` through the device `link`, and no
    /// input device yet.
    pub fn new(bindings: &Bindings, settings: &FfbSettings, link: FfbLink) -> Self {
        let pipeline = FfbPipeline::new(
            PipelineParams::new(settings, &link.facts),
            CLIP_WINDOW_TICKS,
        );
        let safety = FfbSafety::new(SafetyConfig::from_settings(settings));
        Self {
            mapper: ControlMapper::new(bindings),
            inputs: Vec::with_capacity(MAX_INPUTS),
            events: Vec::with_capacity(EVENTS_PER_TICK),
            ffb: FfbOutput::new(pipeline, safety, link.backend),
            facts: link.facts,
            preview_facts: None,
            settings: Box::new(settings.clone()),
            car_lock_deg: None,
            car_reference_nm: None,
            wheel_motion: WheelMotion::new(WHEEL_MOTION_CUTOFF_HZ),
        }
    }

    /// A rig without force-feedback device ([`NullBackend`]) and default FFB settings.
    pub fn without_ffb(bindings: &Bindings) -> Self {
        let settings = FfbSettings::default();
        let link = FfbLink::none(&settings);
        Self::new(bindings, &settings, link)
    }

    /// Adds an input backend, polled every tick. Returns `false` (and drops it) when the rig
    /// already has [`MAX_INPUTS`].
    pub fn add_input(&mut self, backend: Box<dyn InputBackend + Send>) -> bool {
        if self.inputs.len() >= MAX_INPUTS {
            return false;
        }
        self.inputs.push(backend);
        true
    }

    /// Adds the window's keyboard; the UI keeps the returned sender.
    pub fn add_keyboard(&mut self) -> KeyboardSender {
        let (sender, device) = keyboard_channel();
        self.add_input(Box::new(device));
        sender
    }

    /// The control mapper (device list and raw axes for the calibration screen live on the
    /// sim thread, so this is for tests and set-up).
    pub fn mapper(&self) -> &ControlMapper {
        &self.mapper
    }

    /// The force-feedback output.
    pub fn ffb(&self) -> &FfbOutput<BoxedFfb> {
        &self.ffb
    }

    /// Polls every backend at `now` and hands the events to the mapper; `notice` receives
    /// each notice for the app and `raw` every event as it came. Then produces the tick's
    /// controls and actions.
    pub fn poll(
        &mut self,
        now: Duration,
        dt: f64,
        mut notice: impl FnMut(InputNotice),
        mut raw: impl FnMut(&InputEvent),
    ) -> TickOutput {
        for input in &mut self.inputs {
            self.events.clear();
            input.poll(now, &mut self.events);
            for event in &self.events {
                raw(event);
                if let Some(n) = self.mapper.handle(event) {
                    notice(n);
                }
            }
        }
        self.events.clear();
        self.mapper.tick(dt)
    }

    /// Applies new bindings (allocates: a command, not every tick).
    pub fn set_bindings(&mut self, bindings: &Bindings) {
        self.mapper.set_bindings(bindings);
    }

    /// Starts force feedback (fading in from `now`).
    pub fn start_ffb(&mut self, now: Duration) {
        self.wheel_motion.reset();
        self.ffb.start(now);
    }

    /// Stops force feedback at once for `reason`.
    ///
    /// # Errors
    /// The backend's error.
    pub fn stop_ffb(&mut self, reason: StopReason) -> Result<(), FfbError> {
        self.ffb.stop(reason)
    }

    /// Kill switch on (`true`) or off.
    ///
    /// # Errors
    /// The backend's error.
    pub fn set_ffb_killed(&mut self, killed: bool, now: Duration) -> Result<(), FfbError> {
        if killed {
            self.ffb.kill()
        } else {
            self.ffb.enable(now);
            Ok(())
        }
    }

    /// Whether the kill switch is engaged.
    pub fn ffb_killed(&self) -> bool {
        self.ffb.safety().is_killed()
    }

    /// Why force feedback is cut by a safety rule (the runaway trip), while it is: until the
    /// user re-enables it ([`Rig::set_ffb_killed`] with `false`).
    pub fn ffb_cut_reason(&self) -> Option<StopReason> {
        self.ffb.cut_reason()
    }

    /// The device facts of the force-feedback backend in use.
    pub fn ffb_facts(&self) -> &FfbDeviceFacts {
        &self.facts
    }

    /// The device facts the pipeline renders with: a preview's while one is set, else the
    /// device's own.
    pub fn ffb_facts_in_force(&self) -> &FfbDeviceFacts {
        self.preview_facts.as_ref().unwrap_or(&self.facts)
    }

    /// Plays with device facts edited on the settings screen (`Some`) until they are
    /// applied or cancelled (`None`): a test then feels as the edited peak, invert and
    /// rotation will. Increases of strength ramp in; a flipped direction fades out and in.
    pub fn preview_ffb_facts(&mut self, facts: Option<FfbDeviceFacts>) {
        self.preview_facts = facts;
        self.refresh_ffb();
    }

    /// The user's force-feedback settings in force.
    pub fn ffb_settings(&self) -> &FfbSettings {
        &self.settings
    }

    /// New force-feedback settings from the user: the pipeline's parameters are rebuilt from
    /// them and the facts of the device in use, so no settings path can change the device's
    /// peak or direction. Returns the previous settings, to be freed off the sim thread.
    pub fn set_ffb_settings(&mut self, settings: Box<FfbSettings>) -> Box<FfbSettings> {
        let old = std::mem::replace(&mut self.settings, settings);
        self.refresh_ffb();
        old
    }

    /// Swaps in a newly opened force-feedback device at `now`: the old backend is silenced
    /// (zero, then its `stop`) and handed back inside the returned box, to be freed off the
    /// sim thread; the new one fades in unless `paused`.
    pub fn swap_ffb_link(
        &mut self,
        mut link: Box<FfbLink>,
        now: Duration,
        paused: bool,
    ) -> Box<FfbLink> {
        self.ffb.retire_backend(StopReason::Unplugged);
        std::mem::swap(self.ffb.backend_mut(), &mut link.backend);
        std::mem::swap(&mut self.facts, &mut link.facts);
        self.preview_facts = None;
        self.refresh_ffb();
        if !paused {
            self.start_ffb(now);
        }
        link
    }

    /// The car: its steering-wheel lock (degrees each side) sets the soft lock and, in the
    /// [`SteeringLockMode::WheelToCarLock`] mode, the mapping of the wheel's rotation; its
    /// feel's reference column torque sets the per-car normalisation.
    pub fn set_car(&mut self, lock_deg: f64, feel: &SteeringFeel) {
        self.car_lock_deg = Some(lock_deg).filter(|l| l.is_finite() && *l > 0.0);
        self.car_reference_nm =
            Some(feel.peak_column_torque_nm).filter(|t| t.is_finite() && *t > 0.0);
        self.refresh_ffb();
    }

    /// Rebuilds what depends on the settings, the device facts and the car: pipeline
    /// parameters, safety timing, soft lock, runaway trip, rotation mapping.
    fn refresh_ffb(&mut self) {
        let facts = *self.ffb_facts_in_force();
        let params = PipelineParams::new(&self.settings, &facts);
        self.ffb.pipeline_mut().set_params(params);
        self.ffb
            .safety_mut()
            .set_config(SafetyConfig::from_settings(&self.settings));
        let (soft_lock_deg, mapped) = match (self.settings.lock_mode, self.car_lock_deg) {
            (SteeringLockMode::OneToOne, Some(lock)) => (Some(lock), None),
            // The wheel's full rotation is the car's lock: the stop is at the wheel's ends.
            (SteeringLockMode::WheelToCarLock, Some(lock)) => {
                (Some(0.5 * facts.rotation_deg), Some(lock))
            }
            (_, None) => (None, None),
        };
        self.mapper.map_rotation_to_lock(mapped);
        let soft_lock = soft_lock_deg.map_or(SoftLock::OFF, |deg| {
            SoftLock::new(
                &self.settings.soft_lock,
                deg.to_radians(),
                params.max_torque_nm,
            )
        });
        self.ffb.pipeline_mut().set_soft_lock(soft_lock);
        // The runaway trip watches the same lock, whether or not the soft lock renders: with
        // it off nothing stops a wheel that force feedback drives past the car's lock.
        let (trip_lock_rad, trip_ramp_rad) = soft_lock_deg.map_or((f64::INFINITY, 0.0), |deg| {
            let geometry = SoftLock::new(
                &SoftLockSettings {
                    enabled: true,
                    ..self.settings.soft_lock
                },
                deg.to_radians(),
                params.max_torque_nm,
            );
            (geometry.lock_rad, geometry.ramp_rad)
        });
        self.ffb.set_runaway_lock(trip_lock_rad, trip_ramp_rad);
        // Per-car normalisation: the car's reference torque lands on the soft-clip knee.
        let car_gain = match self.car_reference_nm {
            Some(reference) if self.settings.normalise_car_torque => {
                params.knee * params.max_torque_nm / reference
            }
            _ => 1.0,
        };
        self.ffb.pipeline_mut().set_car_gain(car_gain);
    }

    /// One force-feedback tick at `now`: `torque` is `Some` after a physics step or while a
    /// test effect plays, `None` while paused; `wheel_rad` is the physical steering wheel's angle
    /// (unclamped by the car's lock: [`TickOutput::physical_steering_rad`]), for damping,
    /// friction, inertia and the soft lock.
    ///
    /// # Errors
    /// The backend's error (force feedback is then stopped until restarted).
    pub fn ffb_tick(
        &mut self,
        now: Duration,
        torque: Option<RigTorque>,
        wheel_rad: f64,
        dt: f64,
    ) -> Result<FfbTick, FfbError> {
        let (speed, accel) = self.wheel_motion.update(wheel_rad, dt);
        let input = torque.map(|torque| {
            let (column, wheel, feel) = match torque {
                RigTorque::Car { column_nm, feel } => (column_nm, 0.0, Some(feel)),
                RigTorque::AtWheel(nm) => (0.0, nm, None),
            };
            FfbInput {
                column_torque_nm: column,
                wheel_torque_nm: wheel,
                feel,
                wheel_speed_rad_s: speed,
                wheel_accel_rad_s2: accel,
                wheel_angle_rad: wheel_rad,
            }
        });
        self.ffb.tick(now, input.as_ref(), dt)
    }

    /// At the end of a lap: when the settings ask for auto-gain and enough was driven, the
    /// gain that would keep clipping under 2.5 %, limited to a rise of
    /// [`gripline_input::ffb::effects::auto_gain::MAX_RISE_PER_LAP`] over the gain in force.
    /// It is only a **proposal**: nothing changes until the user accepts it in the settings
    /// (then it arrives as new settings and ramps in like any increase).
    pub fn lap_completed(&mut self) -> Option<f64> {
        if !self.settings.effects.auto_gain {
            return None;
        }
        let computed = self.ffb.pipeline_mut().take_auto_gain()?;
        auto_gain::limit_rise(self.settings.gain, computed)
    }

    /// Fraction of clipped ticks over the meter's window.
    pub fn ffb_clipping_fraction(&self) -> f64 {
        self.ffb.pipeline().meter().fraction()
    }

    /// Stops force feedback for good (the app exits): zero, then the backend's `stop`.
    pub fn shutdown(&mut self) {
        let _ = self.ffb.stop(StopReason::Exit);
    }
}
