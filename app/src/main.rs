//! `gripline`: the simulator's binary.
//!
//! Subcommands:
//! - `gripline tire`: the tyre lab. Evaluates any tyre file at given points or over sweeps,
//!   prints the results as CSV or JSON, and plots the force curves (SVG or PNG).
//! - `gripline headless`: runs a scenario (launch, braking, skidpad, laps...) without a
//!   window, as fast as the CPU allows, and reports road-test metrics (and with `--audio`,
//!   renders its sound to a WAV file).
//! - `gripline devices`: lists input devices (gilrs) with their known-wheel match, the
//!   force-feedback backend that would be used, and live axis and button values.
//! - `gripline render`: one frame to PNG without a window, on any adapter.
//!
//! Without a subcommand, `gripline [--vehicle ID] [--track ID] [--autopilot]
//! [--exit-after S] [--screenshot PNG] [--stats]` opens the simulator window ([`window`]).

mod cli;
mod devices;
mod render_frame;
mod settings_ui;
mod tyre_lab;
mod window;

use gripline_app::ffb_connector;

use std::process::ExitCode;

use clap::Parser;

/// `gripline headless`, with the sound and telemetry observers asked for.
fn headless(args: &cli::HeadlessArgs) -> anyhow::Result<()> {
    use gripline_sim::headless::{ObserverGroup, TickObserver};
    let mut observers: Vec<Box<dyn TickObserver>> = Vec::new();
    if let Some(path) = &args.audio {
        observers.push(Box::new(gripline_app::sound::WavRecorder::new(
            path,
            args.audio_rate_hz,
            args.audio_format.wav(),
            // The volumes a new player hears in the window.
            gripline_app::sound::mix_of(&gripline_config::AudioSettings::default()),
        )));
    }
    let targets = args.telemetry.targets()?;
    if targets.any() {
        let observer = gripline_sim::telemetry_out::TelemetryObserver::new(targets)
            .map_err(|e| anyhow::anyhow!("telemetry: {e}"))?;
        observers.push(Box::new(observer));
    }
    let observer: Option<Box<dyn TickObserver>> = (!observers.is_empty())
        .then(|| Box::new(ObserverGroup(observers)) as Box<dyn TickObserver>);
    gripline_sim::headless::run_observed(&args.options(), observer).map(|_summary| ())
}

fn main() -> ExitCode {
    // Whatever ends or stops the process, force feedback goes to zero first: a panic on any
    // thread, SIGINT, SIGTERM, SIGHUP or SIGQUIT (each stops every force-feedback writer,
    // then exits as usual), SIGTSTP (every wheel at zero, then the process stops; SIGCONT
    // fades the force back in).
    gripline_input::ffb::emergency::install_panic_hook();
    if let Err(error) = gripline_input::ffb::emergency::install_signal_handlers() {
        eprintln!(
            "gripline: cannot handle {} (force feedback): {error}",
            gripline_input::ffb::emergency::HANDLED_SIGNAL_NAMES
        );
    }
    let cli = cli::Cli::parse();
    let result = match cli.command {
        Some(cli::Command::Tire(args)) => tyre_lab::run(&args),
        Some(cli::Command::Headless(args)) => headless(&args),
        Some(cli::Command::Devices(args)) => devices::run(&args),
        Some(cli::Command::Render(args)) => render_frame::run(&args),
        Some(cli::Command::Replay(args)) => {
            gripline_sim::headless::replay(&args.options()).map(|_| ())
        }
        None => window::run_from_args(&cli.window),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gripline: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
