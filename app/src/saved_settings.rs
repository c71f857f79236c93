//! The user's saved settings as the window and `gripline render` read them at start: from the
//! settings folder ([`SettingsStore::platform`], `GRIPLINE_CONFIG_DIR` overriding it), never
//! fatal. A missing file gives the defaults; a broken one is kept beside, the defaults used,
//! and the problem returned as a message to print.

use gripline_config::{Settings, SettingsStore};

/// The saved settings, the store they came from (`None` when there is no settings folder) and
/// what went wrong reading them (one line each, already printed to standard error).
pub fn load_saved_settings() -> (Settings, Option<SettingsStore>, Vec<String>) {
    let (settings, store, messages) = match SettingsStore::platform() {
        Ok(store) => {
            let outcome = store.load();
            let messages: Vec<String> = outcome.messages.iter().map(ToString::to_string).collect();
            (outcome.settings, Some(store), messages)
        }
        Err(error) => (
            Settings::default(),
            None,
            vec![format!(
                "settings: {error}; using the defaults for this session"
            )],
        ),
    };
    for message in &messages {
        eprintln!("gripline: {message}");
    }
    (settings, store, messages)
}
