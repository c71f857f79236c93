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

mod car_model_load;
mod cli;
mod devices;
mod render_frame;
mod saved_settings;
mod scene_world;
mod settings_ui;
mod tyre_lab;
mod window;

use std::process::ExitCode;

use clap::Parser;

/// `gripline headless`, with the sound and telemetry outputs asked for.
fn headless(args: &cli::HeadlessArgs) -> anyhow::Result<()> {
    let outputs = gripline_host::headless::HeadlessOutputs {
        audio: args
            .audio
            .as_ref()
            .map(|path| gripline_host::headless::AudioOut {
                path: path.clone(),
                sample_rate_hz: args.audio_rate_hz,
                format: args.audio_format.wav(),
            }),
        telemetry: args.telemetry.targets()?,
    };
    gripline_host::headless::run(&args.options(), &outputs).map(|_summary| ())
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
