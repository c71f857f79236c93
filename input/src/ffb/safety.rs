//! Force-feedback safety rules (`docs/force-feedback.md`, "Safety";
//! `docs/force-feedback-protocols.md`, section 4.5).
//!
//! A motor that keeps pulling when the sim has stopped caring can hurt a wrist or break a
//! thumb on a direct-drive base. The rules, each enforced here or in
//! [`crate::ffb::output::FfbOutput`] and tested with a recording backend:
//!
//! - **Stop at once**: on pause, menu, car reset, exit, device error or unplug
//!   ([`FfbSafety::stop`]), the output is zero from the same tick; no ramp, no slew limit.
//! - **Watchdog**: when no new torque value has arrived for the watchdog time (default
//!   50 ms, at most [`MAX_WATCHDOG_MS`] = 100 ms whatever the settings say), the held output ramps linearly to zero over [`WATCHDOG_RAMP`], and stays at
//!   zero until a fresh value arrives, which then fades in.
//! - **Fade-in**: on start, resume and reconnect ([`FfbSafety::start`]) and after the kill
//!   switch or the watchdog, the output is scaled by a linear ramp 0 -> 1 over the fade-in
//!   time (default 0.5 s).
//! - **Non-finite torque** becomes zero and counts as a fault.
//! - **Kill switch**: [`FfbSafety::kill`] zeroes the output at once and keeps it at zero,
//!   whatever else happens, until [`FfbSafety::enable`].
//! - **Safety cut**: [`FfbSafety::cut`] (the runaway trip, [`crate::ffb::runaway`]) zeroes
//!   the output at once and holds it at zero like the kill switch, through stops and starts,
//!   until the user re-enables force feedback ([`FfbSafety::enable`]); its reason stays
//!   readable ([`FfbSafety::cut_reason`]) so that the user can be told why.
//!
//! Clamp and slew limit are the pipeline's ([`crate::ffb::pipeline`]); safety only ever
//! scales the pipeline's level down, so they hold through it.
//!
//! Time is passed in (a [`Duration`] since any fixed origin); nothing here reads a clock.

use std::time::Duration;

use crate::settings::ffb_settings::{FfbSettings, MAX_WATCHDOG_MS, MIN_WATCHDOG_MS};

use crate::ffb::runaway::RunawayCause;

/// How long the watchdog takes to ramp the held output to zero once it fires.
pub const WATCHDOG_RAMP: Duration = Duration::from_millis(20);

/// Why force feedback was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// Not started yet.
    NotStarted,
    /// The session is paused.
    Pause,
    /// A menu is open.
    Menu,
    /// The car is being reset or teleported.
    CarReset,
    /// The app is exiting.
    Exit,
    /// The device failed a write.
    DeviceError,
    /// The device was unplugged.
    Unplugged,
    /// The runaway trip: the wheel ran away past the car's lock (see
    /// [`crate::ffb::runaway`]). Latched by [`FfbSafety::cut`] until the user re-enables.
    Runaway(RunawayCause),
}

/// Where the safety state machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SafetyState {
    /// Output held at zero until [`FfbSafety::start`].
    Stopped(StopReason),
    /// Rendering torque (possibly fading in, or ramped down by the watchdog).
    Running,
}

/// The watchdog alone: used by [`FfbSafety`] on the sim thread and by the writer thread,
/// which must zero the output even when the sim thread itself has stalled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watchdog {
    timeout: Duration,
    ramp: Duration,
    last_fed: Option<Duration>,
}

impl Watchdog {
    /// A watchdog that fires `timeout` after the last feed and ramps over `ramp`.
    pub fn new(timeout: Duration, ramp: Duration) -> Self {
        Self {
            timeout,
            ramp,
            last_fed: None,
        }
    }

    /// A fresh value arrived at `now`.
    pub fn feed(&mut self, now: Duration) {
        self.last_fed = Some(now);
    }

    /// Forgets the last feed: the factor is 0 until the next one.
    pub fn clear(&mut self) {
        self.last_fed = None;
    }

    /// Output scale at `now`: 1 while fed recently, ramping to 0 after the timeout, and 0
    /// before the first feed.
    pub fn factor(&self, now: Duration) -> f64 {
        let Some(fed) = self.last_fed else {
            return 0.0;
        };
        let quiet = now.saturating_sub(fed);
        if quiet <= self.timeout {
            return 1.0;
        }
        if self.ramp.is_zero() {
            return 0.0;
        }
        let into_ramp = quiet.saturating_sub(self.timeout).as_secs_f64() / self.ramp.as_secs_f64();
        (1.0 - into_ramp).clamp(0.0, 1.0)
    }
}

/// Timing of the safety rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SafetyConfig {
    /// Time without a new value before the watchdog ramps the output down.
    pub watchdog: Duration,
    /// Fade-in time on start, resume, reconnect and re-enable.
    pub fade_in: Duration,
}

impl SafetyConfig {
    /// From the settings (out-of-range values clamped: watchdog [`MIN_WATCHDOG_MS`] to
    /// [`MAX_WATCHDOG_MS`], fade-in up to 10 s). The sim-side gate and the writer thread
    /// (`ffb::writer::WriterConfig`) both take their timing from here.
    pub fn from_settings(settings: &FfbSettings) -> Self {
        let ms = if settings.watchdog_ms.is_finite() {
            settings.watchdog_ms.clamp(MIN_WATCHDOG_MS, MAX_WATCHDOG_MS)
        } else {
            FfbSettings::default().watchdog_ms
        };
        let fade = if settings.fade_in_s.is_finite() {
            settings.fade_in_s.clamp(0.0, 10.0)
        } else {
            0.5
        };
        Self {
            watchdog: Duration::from_secs_f64(ms / 1000.0),
            fade_in: Duration::from_secs_f64(fade),
        }
    }
}

impl Default for SafetyConfig {
    fn default() -> Self {
        Self::from_settings(&FfbSettings::default())
    }
}

/// The safety state machine of one force-feedback device (see the module docs).
#[derive(Clone, Debug)]
pub struct FfbSafety {
    config: SafetyConfig,
    state: SafetyState,
    killed: bool,
    cut: Option<StopReason>,
    watchdog: Watchdog,
    fade_from: Duration,
    held: f64,
    faults: u64,
}

impl FfbSafety {
    /// A stopped safety gate ([`StopReason::NotStarted`]).
    pub fn new(config: SafetyConfig) -> Self {
        Self {
            config,
            state: SafetyState::Stopped(StopReason::NotStarted),
            killed: false,
            cut: None,
            watchdog: Watchdog::new(config.watchdog, WATCHDOG_RAMP),
            fade_from: Duration::ZERO,
            held: 0.0,
            faults: 0,
        }
    }

    /// New timing (settings changed): takes effect from the next tick; a fade-in in
    /// progress continues with the new fade-in time.
    pub fn set_config(&mut self, config: SafetyConfig) {
        self.config = config;
        self.watchdog = Watchdog {
            timeout: config.watchdog,
            ..self.watchdog
        };
    }

    /// The timing in force.
    pub fn config(&self) -> SafetyConfig {
        self.config
    }

    /// Start, resume or reconnect at `now`: output fades in from zero.
    pub fn start(&mut self, now: Duration) {
        self.state = SafetyState::Running;
        self.fade_from = now;
        self.held = 0.0;
        self.watchdog.clear();
    }

    /// Stop at once for `reason`: the output is zero from now until [`FfbSafety::start`].
    pub fn stop(&mut self, reason: StopReason) {
        self.state = SafetyState::Stopped(reason);
        self.held = 0.0;
        self.watchdog.clear();
    }

    /// Kill switch: zero at once, and until [`FfbSafety::enable`].
    pub fn kill(&mut self) {
        self.killed = true;
        self.held = 0.0;
    }

    /// Safety cut for `reason`: zero at once, and held at zero through [`FfbSafety::stop`]
    /// and [`FfbSafety::start`] until [`FfbSafety::enable`] (the user's decision, not the
    /// sim's). A second cut keeps the first reason.
    pub fn cut(&mut self, reason: StopReason) {
        if self.cut.is_none() {
            self.cut = Some(reason);
        }
        self.held = 0.0;
    }

    /// Why the output is cut, while it is.
    pub fn cut_reason(&self) -> Option<StopReason> {
        self.cut
    }

    /// Re-enables after the kill switch or a safety cut; the output fades in from `now`.
    pub fn enable(&mut self, now: Duration) {
        if self.killed || self.cut.is_some() {
            self.killed = false;
            self.cut = None;
            self.fade_from = now;
        }
    }

    /// Whether the kill switch is engaged.
    pub fn is_killed(&self) -> bool {
        self.killed
    }

    /// Whether the output can be non-zero now: running, not killed, not cut.
    pub fn is_live(&self) -> bool {
        self.state == SafetyState::Running && !self.killed && self.cut.is_none()
    }

    /// The state.
    pub fn state(&self) -> SafetyState {
        self.state
    }

    /// How many non-finite values were replaced by zero.
    pub fn faults(&self) -> u64 {
        self.faults
    }

    /// The safe output level at `now`, given this tick's new pipeline level (`None` when no
    /// new value was produced this tick).
    pub fn gate(&mut self, now: Duration, level: Option<f64>) -> f64 {
        if let Some(x) = level {
            let x = if x.is_finite() {
                x
            } else {
                self.faults += 1;
                0.0
            };
            if self.state == SafetyState::Running
                && self.watchdog.last_fed.is_some()
                && self.watchdog.factor(now) < 1.0
            {
                // Fresh values after the watchdog fired: fade in again from zero rather than
                // jump back to full torque.
                self.fade_from = now;
            }
            self.held = x;
            self.watchdog.feed(now);
        }
        if !self.is_live() {
            return 0.0;
        }
        let fade = if self.config.fade_in.is_zero() {
            1.0
        } else {
            (now.saturating_sub(self.fade_from).as_secs_f64() / self.config.fade_in.as_secs_f64())
                .clamp(0.0, 1.0)
        };
        let out = self.held.clamp(-1.0, 1.0) * fade * self.watchdog.factor(now);
        if out.is_finite() { out } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn watchdog_ramps_after_timeout() {
        let mut w = Watchdog::new(ms(50), ms(20));
        assert_eq!(w.factor(ms(0)).to_bits(), 0f64.to_bits(), "never fed");
        w.feed(ms(100));
        assert_eq!(w.factor(ms(150)).to_bits(), 1f64.to_bits());
        assert!((w.factor(ms(160)) - 0.5).abs() < 1e-12);
        assert_eq!(w.factor(ms(170)).to_bits(), 0f64.to_bits());
        assert_eq!(w.factor(ms(10_000)).to_bits(), 0f64.to_bits());
        assert_eq!(
            w.factor(ms(50)).to_bits(),
            1f64.to_bits(),
            "clock before feed"
        );
    }

    #[test]
    fn fade_in_and_stop() {
        let mut s = FfbSafety::new(SafetyConfig::default());
        assert_eq!(
            s.gate(ms(0), Some(1.0)).to_bits(),
            0f64.to_bits(),
            "not started"
        );
        s.start(ms(0));
        let out: Vec<f64> = (0..=600).map(|t| s.gate(ms(t), Some(1.0))).collect();
        assert_eq!(out[0].to_bits(), 0f64.to_bits());
        assert!((out[250] - 0.5).abs() < 1e-12);
        assert!((out[500] - 1.0).abs() < 1e-12);
        assert!(out.windows(2).all(|w| w[1] >= w[0]));
        s.stop(StopReason::Pause);
        assert_eq!(s.gate(ms(501), Some(1.0)).to_bits(), 0f64.to_bits());
        assert_eq!(s.state(), SafetyState::Stopped(StopReason::Pause));
    }

    #[test]
    fn watchdog_time_is_capped_at_100_ms() {
        let with = |watchdog_ms: f64| {
            SafetyConfig::from_settings(&FfbSettings {
                watchdog_ms,
                ..FfbSettings::default()
            })
            .watchdog
        };
        assert_eq!(with(50.0), ms(50));
        assert_eq!(with(100.0), ms(100));
        assert_eq!(with(1000.0), ms(100), "capped");
        assert_eq!(with(f64::INFINITY), ms(50), "default");
        assert_eq!(with(f64::NAN), ms(50), "default");
        assert_eq!(with(0.0), ms(5));
        // A stalled sim's held force is gone within the cap plus the ramp.
        let mut s = FfbSafety::new(SafetyConfig {
            fade_in: Duration::ZERO,
            ..SafetyConfig::from_settings(&FfbSettings {
                watchdog_ms: 1000.0,
                ..FfbSettings::default()
            })
        });
        s.start(ms(0));
        assert_eq!(s.gate(ms(0), Some(1.0)).to_bits(), 1f64.to_bits());
        assert_eq!(s.gate(ms(100), None).to_bits(), 1f64.to_bits());
        assert_eq!(
            s.gate(ms(100) + WATCHDOG_RAMP, None).to_bits(),
            0f64.to_bits()
        );
    }

    #[test]
    fn non_finite_is_zero_and_counted() {
        let mut s = FfbSafety::new(SafetyConfig {
            fade_in: Duration::ZERO,
            ..SafetyConfig::default()
        });
        s.start(ms(0));
        assert_eq!(s.gate(ms(1), Some(f64::NAN)).to_bits(), 0f64.to_bits());
        assert_eq!(s.gate(ms(2), Some(f64::INFINITY)).to_bits(), 0f64.to_bits());
        assert_eq!(s.faults(), 2);
    }

    #[test]
    fn a_cut_holds_through_stop_and_start_until_enable() {
        let mut s = FfbSafety::new(SafetyConfig {
            fade_in: Duration::ZERO,
            ..SafetyConfig::default()
        });
        s.start(ms(0));
        assert!((s.gate(ms(1), Some(0.5)) - 0.5).abs() < 1e-12);
        let reason = StopReason::Runaway(RunawayCause::PushedOut);
        s.cut(reason);
        assert_eq!(s.gate(ms(2), Some(0.5)).to_bits(), 0f64.to_bits());
        // Pause and resume (the sim's stop and start) do not lift it.
        s.stop(StopReason::Pause);
        s.start(ms(3));
        assert_eq!(s.gate(ms(4), Some(0.5)).to_bits(), 0f64.to_bits());
        assert!(!s.is_live());
        // A second cut keeps the first reason.
        s.cut(StopReason::Runaway(RunawayCause::UnexplainedAcceleration));
        assert_eq!(s.cut_reason(), Some(reason));
        // The user re-enables: back, fading in.
        s.enable(ms(5));
        assert_eq!(s.cut_reason(), None);
        assert!((s.gate(ms(6), Some(0.5)) - 0.5).abs() < 1e-12);
    }
}
