//! The engine: each cylinder's combustion is a pulse of exhaust pressure (and the rarefaction
//! behind it), fired at its place in
//! the 720° cycle, so the pulse train repeats at the firing frequency
//! `rpm / 60 * cylinders / 2` and carries its harmonics. Each pulse's strength is fixed at its
//! firing from the combustion (throttle burnt, engine load) with a cycle-to-cycle variation,
//! so a rev-limiter cut or a stall drops whole pulses as the real engine does. The train goes
//! through the exhaust (a low body and a resonance with some rasp) and is mixed with the
//! intake's roar and, while cranking, the starter motor.

use std::f32::consts::TAU;

use gripline_formats::vehicle_sound::MAX_CYLINDERS;

use crate::car_voice::CarVoice;
use crate::dsp::filters::{Biquad, OnePole, Response};
use crate::dsp::noise::WhiteNoise;
use crate::dsp::smooth::Smoothed;
use crate::frame::SoundFrame;

/// Width of a combustion pulse (s): the rise time of its exhaust-pressure pulse.
const PULSE_TAU_S: f32 = 0.0007;
/// The rarefaction that follows each pressure pulse is this many times wider (and as much
/// weaker), so that a pulse carries no net pressure: the train has no DC whatever its
/// strength, and a cut (limiter, stall) silences it at once instead of leaving an offset to
/// decay.
const REBOUND_WIDTH: f32 = 3.0;
/// Strength of a pulse without combustion (the engine pumping, motored by the wheels or the
/// starter).
const MOTORING_PULSE: f32 = 0.12;

/// The engine voice (see the module docs).
#[derive(Clone, Debug)]
pub struct EngineVoice {
    fs: f32,
    car: CarVoice,
    cycle_phase: f64,
    last_phase: [f64; MAX_CYLINDERS],
    pulse_amp: [f32; MAX_CYLINDERS],
    rpm: Smoothed,
    combustion: Smoothed,
    load: Smoothed,
    cranking: Smoothed,
    dc_block: OnePole,
    body: OnePole,
    resonance: Biquad,
    rasp: Biquad,
    intake: Biquad,
    starter_phase: f32,
    noise: WhiteNoise,
    block_counter: u32,
}

impl EngineVoice {
    /// The voice of `car` at `sample_rate_hz`, at rest.
    pub fn new(car: &CarVoice, sample_rate_hz: f32) -> Self {
        let fs = sample_rate_hz;
        Self {
            fs,
            car: *car,
            cycle_phase: 0.0,
            last_phase: [0.0; MAX_CYLINDERS],
            pulse_amp: [0.0; MAX_CYLINDERS],
            rpm: Smoothed::new(0.0, 0.002, fs),
            combustion: Smoothed::new(0.0, 0.002, fs),
            load: Smoothed::new(0.0, 0.01, fs),
            cranking: Smoothed::new(0.0, 0.02, fs),
            dc_block: OnePole::low_pass(3.0, fs),
            body: OnePole::low_pass(car.exhaust_resonance_hz * 2.5, fs),
            resonance: Biquad::new(Response::BandPass, car.exhaust_resonance_hz, 1.5, fs),
            rasp: Biquad::new(Response::HighPass, 1200.0, 0.7, fs),
            intake: Biquad::new(Response::BandPass, 400.0, 1.2, fs),
            starter_phase: 0.0,
            noise: WhiteNoise::new(0x0E46_17E0),
            block_counter: 0,
        }
    }

    /// Changes the car (the state carries on).
    pub fn set_car(&mut self, car: &CarVoice) {
        self.car = *car;
        self.body
            .set_cutoff(car.exhaust_resonance_hz * 2.5, self.fs);
        self.resonance.tune(car.exhaust_resonance_hz, 1.5, self.fs);
    }

    /// Follows `frame`.
    pub fn apply(&mut self, frame: &SoundFrame) {
        self.rpm.set_target(frame.engine_rpm.max(0.0));
        let burn = if frame.running {
            frame.combustion.clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.combustion.set_target(burn);
        self.load.set_target(frame.engine_load.clamp(-1.0, 1.0));
        self.cranking
            .set_target(if frame.cranking { 1.0 } else { 0.0 });
    }

    /// Adds the voice to `out`.
    pub fn render(&mut self, out: &mut [f32]) {
        let cylinders = self.car.cylinders.min(MAX_CYLINDERS);
        let fs = f64::from(self.fs);
        for sample in out.iter_mut() {
            // Filters follow the engine speed every 32 samples (0.7 ms at 48 kHz).
            if self.block_counter == 0 {
                let rpm = self.rpm.value();
                self.intake.tune(250.0 + rpm * 0.08, 1.2, self.fs);
            }
            self.block_counter = (self.block_counter + 1) % 32;

            let rpm = self.rpm.advance();
            let combustion = self.combustion.advance();
            let load = self.load.advance();
            let cranking = self.cranking.advance();
            let cycles_per_s = f64::from(rpm) / 120.0;
            self.cycle_phase = (self.cycle_phase + cycles_per_s / fs).rem_euclid(1.0);

            // Combustion pulses: a new pulse for every cylinder whose firing phase was passed.
            let strength = combustion * (0.55 + 0.45 * load.max(0.0));
            let mut train = 0.0f32;
            for k in 0..cylinders {
                let since = (self.cycle_phase - self.car.firing_phase[k]).rem_euclid(1.0);
                if since < self.last_phase[k] {
                    let variation = 1.0 + self.car.pulse_variation * self.noise.sample();
                    let motoring = if rpm > 30.0 { MOTORING_PULSE } else { 0.0 };
                    self.pulse_amp[k] = (strength + motoring) * variation;
                }
                self.last_phase[k] = since;
                if cycles_per_s > 0.1 {
                    #[allow(clippy::cast_possible_truncation)]
                    let t = (since / cycles_per_s) as f32 / PULSE_TAU_S;
                    if t < 60.0 {
                        let r = t / REBOUND_WIDTH;
                        let shape = t * (1.0 - t).exp() - r * (1.0 - r).exp() / REBOUND_WIDTH;
                        train += self.pulse_amp[k] * shape;
                    }
                }
            }
            // Exhaust: the pulse train (a slow high-pass keeps rounding from building up an
            // offset), a low body, the resonance and rasp.
            let pressure = train - self.dc_block.process(train);
            let body = self.body.process(pressure);
            let resonance = self.resonance.process(pressure);
            let rasp = self.rasp.process(pressure);
            let exhaust = 0.9 * body + 0.6 * resonance + 0.5 * self.car.exhaust_brightness * rasp;

            // Intake roar: noise shaped by the pulses, with the throttle open.
            let open = combustion * (rpm / self.car.redline_rpm).min(1.2);
            let intake = self.intake.process(self.noise.sample())
                * self.car.intake_level
                * open
                * (0.6 + 0.4 * pressure.clamp(-1.0, 1.0).abs());

            // Starter motor: a geared buzz (ring gear about 12 times the crank speed).
            let mut starter = 0.0;
            if cranking > 1e-3 {
                let hz = 60.0 + rpm / 60.0 * 12.0;
                self.starter_phase = (self.starter_phase + hz / self.fs).fract();
                let p = self.starter_phase * TAU;
                starter =
                    cranking * 0.12 * (p.sin() + 0.5 * (2.0 * p).sin() + 0.3 * (3.0 * p).sin());
            }
            *sample += 0.35 * exhaust + 0.25 * intake + starter;
        }
    }
}
