//! Draws the spectrogram of a WAV file as a PNG, to look at what the synthesiser made:
//! `cargo run -p gripline-audio --example spectrogram -- run.wav out.png [max_hz]`.
//! Time runs left to right, frequency bottom to top (linear), level from -100 dB (black)
//! through blue, red and yellow to 0 dB (white).

// Pixel and sample arithmetic (finite, in range by construction).
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::path::Path;

use gripline_audio::analysis::spectrogram;
use gripline_audio::wav::read_wav;

fn colour(db: f32) -> [u8; 3] {
    // Black, blue, red, yellow, white as the level rises from -100 dB to 0 dB.
    let t = ((db + 100.0) / 100.0).clamp(0.0, 1.0) * 4.0;
    let stops = [
        [0.0, 0.0, 0.0],
        [0.1, 0.1, 0.6],
        [0.8, 0.1, 0.3],
        [1.0, 0.8, 0.1],
        [1.0, 1.0, 1.0],
    ];
    let i = (t.floor() as usize).min(3);
    let f = t - i as f32;
    let mix = |k: usize| ((stops[i][k] * (1.0 - f) + stops[i + 1][k] * f) * 255.0) as u8;
    [mix(0), mix(1), mix(2)]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: spectrogram IN.wav OUT.png [MAX_HZ]");
        std::process::exit(2);
    }
    let wav = read_wav(Path::new(&args[1]))?;
    let max_hz: f64 = args.get(3).map_or(Ok(2000.0), |s| s.parse())?;
    let fs = f64::from(wav.sample_rate_hz);
    let window = (fs * 0.08) as usize;
    let columns = 800usize;
    let hop = (wav.samples.len().saturating_sub(window) / columns).max(1);
    let rows = 400usize;
    let grid = spectrogram(&wav.samples, fs, window, hop, rows, max_hz);
    let width = grid.len() as u32;
    let mut pixels = vec![0u8; grid.len() * rows * 3];
    for (x, column) in grid.iter().enumerate() {
        for (r, &db) in column.iter().enumerate() {
            let y = rows - 1 - r;
            let at = (y * grid.len() + x) * 3;
            pixels[at..at + 3].copy_from_slice(&colour(db));
        }
    }
    let file = std::fs::File::create(&args[2])?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, rows as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&pixels)?;
    println!(
        "{}: {:.1} s at {} Hz, {} columns of {:.0} ms, 0..{max_hz} Hz",
        args[2],
        wav.samples.len() as f64 / fs,
        wav.sample_rate_hz,
        width,
        hop as f64 / fs * 1000.0
    );
    Ok(())
}
