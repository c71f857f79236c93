//! The settings screen's "Telemetry" tab: OutGauge, OutSim and Gripline-stream
//! destinations, rates, OutSim options and the packet ID, and what is being sent now.

use egui::{DragValue, RichText, TextEdit, Ui};
use gripline_config::TelemetrySettings;
use gripline_config::telemetry::RATE_RANGE_HZ;

/// One destination: a switch and `HOST:PORT`.
fn destination(ui: &mut Ui, value: &mut Option<String>, default_port: u16) {
    let mut on = value.is_some();
    ui.horizontal(|ui| {
        if ui.checkbox(&mut on, "Send to").changed() {
            *value = on.then(|| format!("127.0.0.1:{default_port}"));
        }
        if let Some(text) = value {
            ui.add(
                TextEdit::singleline(text)
                    .desired_width(200.0)
                    .hint_text("HOST:PORT"),
            );
        }
    });
}

/// Draws the tab over `telemetry` (a draft); `status` says what is sent now.
pub fn telemetry_tab(ui: &mut Ui, telemetry: &mut TelemetrySettings, status: &str) {
    ui.heading("Telemetry out");
    ui.label(
        RichText::new(
            "Live for Speed's UDP packets, read by dashboards (SimHub and others), shakers and motion software.",
        )
        .weak(),
    );
    ui.label(RichText::new(status).weak());
    ui.add_space(8.0);
    let rates = RATE_RANGE_HZ.0..=RATE_RANGE_HZ.1;
    egui::Grid::new("telemetry-grid")
        .num_columns(2)
        .spacing([16.0, 8.0])
        .show(ui, |ui| {
            ui.label("OutGauge (dashboard)");
            destination(ui, &mut telemetry.outgauge, 30000);
            ui.end_row();
            ui.label("OutGauge rate");
            ui.add(
                DragValue::new(&mut telemetry.outgauge_rate_hz)
                    .range(rates.clone())
                    .suffix(" Hz"),
            );
            ui.end_row();
            ui.label("OutSim (motion)");
            destination(ui, &mut telemetry.outsim, 30001);
            ui.end_row();
            ui.label("OutSim rate");
            ui.add(
                DragValue::new(&mut telemetry.outsim_rate_hz)
                    .range(rates.clone())
                    .suffix(" Hz"),
            );
            ui.end_row();
            ui.label("Gripline stream (everything)");
            destination(ui, &mut telemetry.stream, 30002);
            ui.end_row();
            ui.label("Gripline stream rate");
            ui.add(
                DragValue::new(&mut telemetry.stream_rate_hz)
                    .range(rates)
                    .suffix(" Hz"),
            );
            ui.end_row();
            ui.label("OutSim options");
            ui.horizontal(|ui| {
                ui.add(
                    DragValue::new(&mut telemetry.outsim_opts)
                        .range(0..=0xff)
                        .hexadecimal(2, false, false),
                );
                ui.label(
                    RichText::new("hexadecimal, as LFS's OutSim Opts: 0 classic, ff everything")
                        .weak(),
                );
            });
            ui.end_row();
            ui.label("Packet ID");
            ui.horizontal(|ui| {
                let mut on = telemetry.id.is_some();
                if ui.checkbox(&mut on, "Add an ID").changed() {
                    telemetry.id = on.then_some(1);
                }
                if let Some(id) = &mut telemetry.id {
                    ui.add(DragValue::new(id));
                }
            });
            ui.end_row();
        });
}
