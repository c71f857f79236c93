//! The settings screen's "Sound" tab: volumes of the three buses and the master, mute, the
//! output device, and what the sound is doing now (the device playing, or why it is silent).

use egui::{ComboBox, RichText, Slider, Ui};
use gripline_config::AudioSettings;

/// Draws the tab over `audio` (a draft). `devices` are the output devices found when the
/// screen opened; `status` says what plays now.
pub fn audio_tab(ui: &mut Ui, audio: &mut AudioSettings, devices: &[String], status: &str) {
    ui.heading("Sound");
    ui.label(RichText::new(status).weak());
    ui.add_space(8.0);
    egui::Grid::new("audio-grid")
        .num_columns(2)
        .spacing([16.0, 8.0])
        .show(ui, |ui| {
            for (label, value) in [
                ("Master", &mut audio.master),
                ("Engine and gearbox", &mut audio.engine),
                ("Tyres and road", &mut audio.tyres),
                ("Wind and impacts", &mut audio.ambient),
            ] {
                ui.label(label);
                let mut percent = (*value * 100.0).round();
                if ui
                    .add(Slider::new(&mut percent, 0.0..=100.0).suffix(" %"))
                    .changed()
                {
                    *value = percent / 100.0;
                }
                ui.end_row();
            }
            ui.label("Mute");
            ui.checkbox(&mut audio.muted, "No sound (the volumes are kept)");
            ui.end_row();
            ui.label("Output device");
            let shown = audio
                .device
                .clone()
                .unwrap_or_else(|| "System default".to_owned());
            ComboBox::from_id_salt("audio-device")
                .selected_text(shown)
                .width(320.0)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut audio.device, None, "System default");
                    for name in devices {
                        ui.selectable_value(&mut audio.device, Some(name.clone()), name);
                    }
                });
            ui.end_row();
        });
    if devices.is_empty() {
        ui.label(RichText::new("No output devices were found.").weak());
    }
}
