//! The replay mode's state: the picker, a replay loading, the viewer, and the live car and
//! track kept while the viewer shows the replay's.

use std::path::PathBuf;

use gripline_host::replay_timeline::TimelineLoader;

use super::replay_viewer::ReplayViewer;
use super::shown::Shown;

/// The replay picker and viewer, and the live car and track kept while the viewer shows the
/// replay's.
#[derive(Default)]
pub(crate) struct ReplayMode {
    /// The replay being watched.
    pub(crate) viewer: Option<ReplayViewer>,
    /// A replay being re-simulated for the viewer.
    pub(crate) loader: Option<TimelineLoader>,
    /// The replay picker, open, with the files it lists.
    pub(crate) picker: Option<Vec<PathBuf>>,
    /// A replay that differs from this build or its files, waiting for "play anyway".
    pub(crate) differs: Option<(PathBuf, Vec<String>)>,
    /// What the live drive draws (its track and car, with the car's model or its loader),
    /// kept while the viewer shows the replay's.
    pub(crate) live: Option<Shown>,
}
