//! The command line of `gripline`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Gripline, a real-time driving simulator.
#[derive(Debug, Parser)]
#[command(name = "gripline", version, about)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do; without a subcommand, the simulator window opens.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The simulator window's options.
    #[command(flatten)]
    pub window: WindowArgs,
}

/// Options of the simulator window (`gripline` without a subcommand).
#[derive(Clone, Debug, Default, Args)]
#[allow(clippy::struct_excessive_bools)] // independent switches of the command line
pub struct WindowArgs {
    /// Vehicle file, shipped vehicle name or installed TORCS car (`torcs:NAME`); default: the
    /// settings' choice (corvette-c5).
    #[arg(long)]
    pub vehicle: Option<String>,

    /// Track file or shipped track name; default: the settings' choice (circuit).
    #[arg(long)]
    pub track: Option<String>,

    /// Let the driver model drive (it laps the track's centre line).
    #[arg(long)]
    pub autopilot: bool,

    /// Close the window after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub exit_after: Option<f64>,

    /// Save the last frame (scene and HUD) as PNG before exiting.
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<PathBuf>,

    /// Pause the drive when it has run this many simulated seconds, with the camera settled
    /// there (`--exit-after` then waits for it): the frame `gripline render --at` draws.
    #[arg(long, value_name = "SECONDS")]
    pub hold_at: Option<f64>,

    /// Draw the scene alone: no HUD, notices or pause menu (for frame captures).
    #[arg(long)]
    pub no_hud: bool,

    /// Show the timing page and print the sim-thread and frame timing at exit.
    #[arg(long)]
    pub stats: bool,

    /// Show the force-feedback graph from the start (F4 toggles it).
    #[arg(long)]
    pub ffb_graph: bool,

    /// Window size, e.g. 1280x720; default: the settings' resolution.
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,

    /// Camera at start.
    #[arg(long, value_enum)]
    pub camera: Option<CameraArg>,

    /// Rendering quality tier; default: the settings' choice (automatic for the adapter).
    #[arg(long, value_enum)]
    pub quality: Option<QualityArg>,

    /// Open the settings screen on this tab at start (for setting up, and for screenshots
    /// of it in bug reports).
    #[arg(long, value_enum, value_name = "TAB")]
    pub settings: Option<SettingsTabArg>,

    /// Drive the car in this set-up (RON; fields left out keep the car file's values;
    /// values outside the car's ranges are clamped with a message).
    #[arg(long, value_name = "setup.ron")]
    pub setup: Option<PathBuf>,

    /// Open this replay in the replay viewer at start (the live session waits, paused).
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,

    /// Open the lap analysis at start (L toggles it).
    #[arg(long)]
    pub lap_analysis: bool,

    /// Telemetry out (OutGauge, OutSim).
    #[command(flatten)]
    pub telemetry: TelemetryArgs,
}

/// Telemetry out over UDP in Live for Speed's formats, read by dashboards (SimHub and
/// others), shakers and motion software. Off unless a destination is given.
#[derive(Clone, Debug, Default, Args)]
pub struct TelemetryArgs {
    /// Send OutGauge packets (dashboard: speed, rpm, gear, pedals, fuel, lights) to
    /// HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub outgauge: Option<String>,

    /// OutGauge packets per second (1 to 1000); default: the settings' (60).
    #[arg(long, value_name = "HZ")]
    pub outgauge_rate_hz: Option<f64>,

    /// Send OutSim packets (motion: angular velocity, angles, acceleration, velocity,
    /// position) to HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub outsim: Option<String>,

    /// OutSim packets per second (1 to 1000); default: the settings' (100).
    #[arg(long, value_name = "HZ")]
    pub outsim_rate_hz: Option<f64>,

    /// OutSim Opts in hexadecimal, as in LFS's cfg.txt: 0 for the classic 64-byte packet, ff
    /// for everything (header, ID, time, main, inputs, drive, distance, wheels: 272 bytes);
    /// default: the settings' (0).
    #[arg(long, value_name = "HEX")]
    pub outsim_opts: Option<String>,

    /// Add this ID to the packets (LFS's `OutGauge ID` / `OutSim ID`).
    #[arg(long, value_name = "N")]
    pub telemetry_id: Option<i32>,

    /// Send Gripline's own telemetry stream (every physics figure, per wheel included;
    /// docs/telemetry-stream.md) to HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub stream: Option<String>,

    /// Gripline stream packets per second (1 to 1000); default: the settings' (100).
    #[arg(long, value_name = "HZ")]
    pub stream_rate_hz: Option<f64>,
}

impl TelemetryArgs {
    /// The destinations and rates asked for.
    ///
    /// # Errors
    /// A destination that does not resolve, bad options or rates, each named.
    pub fn targets(&self) -> anyhow::Result<gripline_sim::telemetry_out::TelemetryTargets> {
        let resolve =
            |flag: &str, text: &Option<String>| -> anyhow::Result<Option<std::net::SocketAddr>> {
                text.as_deref()
                    .map(gripline_sim::telemetry_out::parse_destination)
                    .transpose()
                    .map_err(|e| anyhow::anyhow!("--{flag} {e}"))
            };
        let defaults = gripline_sim::telemetry_out::TelemetryTargets::default();
        let opts = match &self.outsim_opts {
            Some(text) => u32::from_str_radix(text.trim_start_matches("0x"), 16)
                .map_err(|e| anyhow::anyhow!("--outsim-opts {text}: {e} (hexadecimal, e.g. ff)"))?,
            None => defaults.outsim_opts,
        };
        let targets = gripline_sim::telemetry_out::TelemetryTargets {
            outgauge: resolve("outgauge", &self.outgauge)?,
            outgauge_rate_hz: self.outgauge_rate_hz.unwrap_or(defaults.outgauge_rate_hz),
            outsim: resolve("outsim", &self.outsim)?,
            outsim_rate_hz: self.outsim_rate_hz.unwrap_or(defaults.outsim_rate_hz),
            outsim_opts: opts,
            id: self.telemetry_id,
            stream: resolve("stream", &self.stream)?,
            stream_rate_hz: self.stream_rate_hz.unwrap_or(defaults.stream_rate_hz),
        };
        targets
            .check()
            .map_err(|e| anyhow::anyhow!("telemetry: {e}"))?;
        Ok(targets)
    }
}

/// A tab of the settings screen, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SettingsTabArg {
    /// Devices, bindings, calibration, shifter.
    Controls,
    /// Force feedback.
    Ffb,
    /// Car, track, gearbox and aids.
    Car,
    /// Display and camera.
    Graphics,
    /// Volumes, output device, mute.
    Sound,
    /// OutGauge and OutSim destinations.
    Telemetry,
    /// The car's set-up.
    Garage,
}

/// A rendering quality tier, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QualityArg {
    /// Chosen for the graphics adapter (Low on a software renderer).
    Auto,
    /// No MSAA, small shadow map, half internal resolution.
    Low,
    /// Up to 2x MSAA, full resolution.
    Medium,
    /// The settings' MSAA, the largest shadow map.
    High,
}

impl From<QualityArg> for gripline_config::QualityChoice {
    fn from(q: QualityArg) -> Self {
        match q {
            QualityArg::Auto => Self::Automatic,
            QualityArg::Low => Self::Low,
            QualityArg::Medium => Self::Medium,
            QualityArg::High => Self::High,
        }
    }
}

/// A camera, on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum CameraArg {
    /// Behind and above the car, following it smoothly.
    #[default]
    Chase,
    /// The driver's eyes, with the dashboard and steering wheel.
    Cockpit,
    /// On the bonnet, looking ahead.
    Bonnet,
    /// Circling the car.
    Orbit,
}

/// Arguments of `gripline render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Vehicle file, shipped vehicle name or installed TORCS car (`torcs:NAME`).
    #[arg(long, default_value = "corvette-c5")]
    pub vehicle: String,

    /// Track file or shipped track name.
    #[arg(long, default_value = "circuit")]
    pub track: String,

    /// Camera.
    #[arg(long, value_enum, default_value_t = CameraArg::Chase)]
    pub camera: CameraArg,

    /// Let the autopilot drive this many simulated seconds before the frame.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    pub at: f64,

    /// Image width (pixels).
    #[arg(long, default_value_t = 1280)]
    pub width: u32,

    /// Image height (pixels).
    #[arg(long, default_value_t = 720)]
    pub height: u32,

    /// Vertical field of view (degrees); default: the settings' field of view, as the window.
    #[arg(long, value_name = "DEG")]
    pub fov: Option<f64>,

    /// MSAA samples (1, 2, 4 or 8), capped by the quality tier as in the window; default: the
    /// settings' MSAA samples.
    #[arg(long, value_name = "SAMPLES")]
    pub msaa: Option<u32>,

    /// Rendering quality tier, as the window's `--quality` (automatic: Low on a software
    /// renderer); default: the settings' choice.
    #[arg(long, value_enum)]
    pub quality: Option<QualityArg>,

    /// The PNG to write.
    #[arg(long, value_name = "PNG")]
    pub out: PathBuf,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Tyre lab: evaluate a tyre at given points or over sweeps, print and plot the forces.
    Tire(TireArgs),
    /// Run a scenario without a window, as fast as the CPU allows: telemetry and metrics.
    Headless(HeadlessArgs),
    /// List input devices (wheels, pedals, gamepads): identity, known-wheel model, the
    /// force-feedback backend that would be used, and live axis and button values.
    Devices(DevicesArgs),
    /// Render one frame without a window (any adapter, including the software one) to PNG.
    Render(RenderArgs),
    /// Re-simulate a replay without a window (bit for bit with the build that recorded it):
    /// telemetry and a summary, and whether it reproduced the recording.
    Replay(ReplayArgs),
}

/// Arguments of `gripline replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The replay file (`.gripline-replay`), from `gripline headless --record` or the
    /// window's recordings.
    pub file: PathBuf,

    /// Write telemetry (CSV, one row per recorded tick, as `gripline headless --out`) here.
    #[arg(long, value_name = "telemetry.csv")]
    pub out: Option<PathBuf>,

    /// Record every N-th tick only.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub decimate: u64,

    /// Play even when the build, the car or the track differ from the recording's, or the
    /// recording is incomplete: it may diverge (the summary says where).
    #[arg(long)]
    pub force: bool,
}

impl ReplayArgs {
    /// What these arguments ask for.
    pub fn options(&self) -> gripline_sim::headless::ReplayOptions {
        gripline_sim::headless::ReplayOptions {
            file: self.file.clone(),
            out: self.out.clone(),
            decimate: self.decimate,
            force: self.force,
        }
    }
}

/// Arguments of `gripline devices`.
#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// Keep polling and redraw the table every 100 ms (stop with Ctrl-C).
    #[arg(long)]
    pub watch: bool,

    /// With `--watch`, stop after this many seconds.
    #[arg(long, value_name = "N", requires = "watch")]
    pub seconds: Option<f64>,

    /// Print the known-wheel table instead (one row per vendor:product ID, with the peak
    /// torque Gripline assumes for it) on stdout, and nothing else there.
    #[arg(long, conflicts_with = "watch")]
    pub known: bool,

    /// With `--known`: `csv` (columns `vid,pid,model,shared,assumed_peak_nm,backend,
    /// rotation_deg`) or `json` (an array of objects with those keys).
    #[arg(long, value_enum, default_value_t = KnownFormat::Csv, requires = "known")]
    pub format: KnownFormat,
}

/// Output format of `gripline devices --known`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KnownFormat {
    /// Comma-separated values with a header line.
    Csv,
    /// A JSON array.
    Json,
}

/// Arguments of `gripline headless`.
#[derive(Debug, Args)]
pub struct HeadlessArgs {
    /// Vehicle file, the name of a shipped vehicle (e.g. `corvette-c5`) or an installed TORCS car
    /// (`torcs:car1-trb1`).
    #[arg(long)]
    pub vehicle: String,

    /// Track file or name (`flat` for an endless plane); default: the scenario's track.
    #[arg(long)]
    pub track: Option<String>,

    /// Scenario file, or the name of a shipped scenario (e.g. `launch`).
    #[arg(long)]
    pub scenario: String,

    /// Simulated seconds (above 0, at most 24 h) for the scenarios that run for a time (laps,
    /// scripts); the measurement scenarios end by their own rule and refuse it.
    #[arg(long, value_name = "S")]
    pub duration: Option<f64>,

    /// Physics rate (Hz, 100 to 20000): the same model at another fixed step, for
    /// integration-convergence studies. Default: the real-time rate, 1000.
    #[arg(long, value_name = "HZ")]
    pub rate_hz: Option<f64>,

    /// Write telemetry (CSV, one row per recorded tick) here.
    #[arg(long, value_name = "telemetry.csv")]
    pub out: Option<PathBuf>,

    /// Record every N-th tick only.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub decimate: u64,

    /// Write the summary (JSON metrics) here as well as to standard output.
    #[arg(long, value_name = "summary.json")]
    pub summary: Option<PathBuf>,

    /// Write the force feedback of every tick here (CSV): column torque, each stage's and
    /// effect's share, the torque at the wheel, the device level and the clip flag.
    #[arg(long, value_name = "ffb.csv")]
    pub ffb_trace: Option<PathBuf>,

    /// The wheel and force-feedback settings the trace is made for (RON: `peak_torque_nm`,
    /// `invert`, `rotation_deg`, `ffb: (...)`); default: an 8 N·m, 900° wheel with the default
    /// settings.
    #[arg(long, value_name = "profile.ron")]
    pub ffb_profile: Option<PathBuf>,

    /// Render the run's sound into this WAV file (mono), with the synthesiser the window
    /// plays, deterministically.
    #[arg(long, value_name = "run.wav")]
    pub audio: Option<PathBuf>,

    /// Sample rate of `--audio` (Hz).
    #[arg(long, default_value_t = 48_000, value_name = "HZ",
          value_parser = clap::builder::TypedValueParser::map(
              clap::builder::PossibleValuesParser::new(["44100", "48000"]),
              |s: String| s.parse::<u32>().unwrap_or(48_000)))]
    pub audio_rate_hz: u32,

    /// Sample format of `--audio`.
    #[arg(long, value_enum, default_value_t = AudioFormat::Pcm16)]
    pub audio_format: AudioFormat,

    /// Run the car in this set-up (RON; fields left out keep the car file's values; values
    /// outside the car's ranges are clamped with a message).
    #[arg(long, value_name = "setup.ron")]
    pub setup: Option<PathBuf>,

    /// Air temperature (°C, -60 to 60; default 20): the tyres' cold pressures are set at it
    /// and they warm from it.
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    pub air_temp_c: Option<f64>,

    /// Track surface temperature (°C, -60 to 90; default 25).
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    pub track_temp_c: Option<f64>,

    /// Record the run as a replay here (`gripline replay FILE` re-simulates it).
    #[arg(long, value_name = "run.gripline-replay")]
    pub record: Option<PathBuf>,

    /// Telemetry out (OutGauge, OutSim), sent as the run steps (faster than real time).
    #[command(flatten)]
    pub telemetry: TelemetryArgs,
}

/// Sample format of `gripline headless --audio`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AudioFormat {
    /// 16-bit PCM.
    #[default]
    Pcm16,
    /// 32-bit float.
    Float32,
}

impl AudioFormat {
    /// The WAV writer's format.
    pub fn wav(self) -> gripline_audio::WavFormat {
        match self {
            AudioFormat::Pcm16 => gripline_audio::WavFormat::Pcm16,
            AudioFormat::Float32 => gripline_audio::WavFormat::Float32,
        }
    }
}

impl HeadlessArgs {
    /// The run these arguments ask for.
    pub fn options(&self) -> gripline_sim::headless::HeadlessOptions {
        gripline_sim::headless::HeadlessOptions {
            vehicle: self.vehicle.clone(),
            track: self.track.clone(),
            scenario: self.scenario.clone(),
            duration: self.duration,
            rate_hz: self.rate_hz,
            out: self.out.clone(),
            decimate: self.decimate,
            summary: self.summary.clone(),
            ffb_trace: self.ffb_trace.clone(),
            ffb_profile: self.ffb_profile.clone(),
            record: self.record.clone(),
            setup: self.setup.clone(),
            environment: (self.air_temp_c.is_some() || self.track_temp_c.is_some()).then(|| {
                let d = gripline_physics::environment::Environment::default();
                gripline_physics::environment::Environment {
                    ambient_temp_c: self.air_temp_c.unwrap_or(d.ambient_temp_c),
                    track_temp_c: self.track_temp_c.unwrap_or(d.track_temp_c),
                }
            }),
        }
    }
}

/// Output format of the tyre lab's data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Comma-separated values with a header line, full f64 precision.
    #[default]
    Csv,
    /// A JSON array of objects.
    Json,
}

/// Which sweep the tyre lab runs when no `--points` file is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Sweep {
    /// Slip angle over `--alpha-deg` at every load (pure side slip).
    #[default]
    Alpha,
    /// Slip ratio over `--kappa` at every load (pure longitudinal slip).
    Kappa,
    /// Slip ratio over `--kappa` at each slip angle of `--alphas-deg`, first load (combined slip).
    Combined,
    /// Camber over `--camber-deg` at each slip angle of `--alphas-deg`, first load.
    Camber,
}

/// Arguments of `gripline tire`.
#[derive(Debug, Args)]
pub struct TireArgs {
    /// Tyre file (.tir or .ron), or the name of a shipped tyre (e.g. `calspan-155sr13`).
    #[arg(long, alias = "tire")]
    pub tyre: String,

    /// CSV of points to evaluate, header `fz,kappa,alpha,gamma,vx,pressure` (SI, ISO-W, Pa;
    /// `gamma` positive with the top of the wheel to -y).
    #[arg(long, value_name = "POINTS.csv")]
    pub points: Option<PathBuf>,

    /// Output format of the data.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,

    /// Write the data here instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Print a human-readable summary (peaks, stiffnesses) instead of the data.
    #[arg(long)]
    pub summary: bool,

    /// Plot the force curves (Fy-alpha, Fx-kappa, Mz-alpha, friction ellipse) to an .svg or .png.
    #[arg(long, value_name = "OUT.svg|OUT.png")]
    pub plot: Option<PathBuf>,

    /// The sweep to run when no `--points` are given.
    #[arg(long, value_enum, default_value_t)]
    pub sweep: Sweep,

    /// Vertical loads in newtons, comma-separated. Default: 0.5, 1 and 1.5 times the tyre's
    /// nominal load where it has one, else 2000, 4000 and 6000 N.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "N,N,...",
        allow_hyphen_values = true
    )]
    pub loads: Vec<f64>,

    /// Slip-angle range in degrees for sweeps, `MIN:MAX`.
    #[arg(
        long,
        default_value = "-15:15",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    pub alpha_deg: String,

    /// Slip-ratio range for sweeps, `MIN:MAX`.
    #[arg(
        long,
        default_value = "-0.4:0.4",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    pub kappa: String,

    /// Inclination (camber) range in degrees for the camber sweep, `MIN:MAX`: ISO, positive
    /// when the top of the wheel leans to -y (the right), the tyre as its data give it. A car's
    /// negative camber (top inwards) is a positive inclination of a left-measured tyre.
    #[arg(
        long,
        default_value = "-8:8",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    pub camber_deg: String,

    /// Slip angles in degrees for the combined and camber sweeps, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0,2,4,8",
        value_name = "DEG,..."
    )]
    pub alphas_deg: Vec<f64>,

    /// Inclination (camber) angle in degrees held during the other sweeps (ISO, as
    /// `--camber-deg`).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub gamma_deg: f64,

    /// Longitudinal speed in m/s for sweeps.
    #[arg(long, default_value_t = 16.667)]
    pub vx: f64,

    /// Inflation pressure in Pa for sweeps. Default: the tyre's nominal pressure where it has
    /// one, else 220000 Pa.
    #[arg(long)]
    pub pressure: Option<f64>,

    /// Surface friction scale (1 = the road the tyre data was measured on; 0.71 wet, 0.12 ice).
    #[arg(long, default_value_t = 1.0)]
    pub mu_scale: f64,

    /// Points per sweep curve.
    #[arg(long, default_value_t = 121)]
    pub steps: usize,

    /// Apply the `.tir` file's `[*_RANGE]` input limits, as the simulator does.
    #[arg(long)]
    pub limits: bool,
}

impl TireArgs {}
