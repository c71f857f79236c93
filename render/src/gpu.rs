//! [`GpuContext`]: adapter and device, for a window (with a surface to present to) or
//! headless, from an [`AdapterChoice`].
//!
//! The environment variable `GRIPLINE_ADAPTER` steers the choice: `software` (or `fallback`)
//! asks for a software adapter such as Mesa's lavapipe, `low-power` and `high-performance`
//! set the power preference; anything else (or nothing) picks the default high-performance
//! hardware adapter and falls back to a software one when there is none. `WGPU_BACKEND`
//! (wgpu's own variable) still limits the backends.

use crate::adapter_choice::AdapterChoice;
use crate::error::RenderError;

/// An instance, adapter, device and queue, ready to render.
#[derive(Debug, Clone)]
pub struct GpuContext {
    /// The wgpu instance (create window surfaces from it).
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The logical device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl GpuContext {
    /// A headless context: a new instance (backends from `WGPU_BACKEND` if set), and the
    /// adapter `choice` asks for.
    ///
    /// # Errors
    /// [`RenderError::NoAdapter`] when no adapter at all is found, [`RenderError::NoDevice`]
    /// when it cannot create a device.
    pub fn headless(choice: AdapterChoice) -> Result<Self, RenderError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::with_instance(instance, None, choice)
    }

    /// A context on `instance` whose adapter can present to `compatible_surface` (when
    /// given), as a window needs.
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub fn with_instance(
        instance: wgpu::Instance,
        compatible_surface: Option<&wgpu::Surface<'_>>,
        choice: AdapterChoice,
    ) -> Result<Self, RenderError> {
        let adapter = pollster::block_on(request_adapter(&instance, compatible_surface, choice))?;
        let info = adapter.get_info();
        // Timestamp queries only where the adapter has them (benchmarks use them).
        let required_features = adapter.features() & wgpu::Features::TIMESTAMP_QUERY;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("gripline device"),
            required_features,
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| RenderError::NoDevice {
            adapter: info.name.clone(),
            detail: e.to_string(),
        })?;
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
        })
    }

    /// A one-line description of the adapter: name, backend, device type.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }

    /// Whether the adapter is a software rasteriser (lavapipe, WARP, llvmpipe).
    pub fn is_software(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }

    /// Whether the device can write GPU timestamps inside passes.
    pub fn has_timestamps(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }
}

async fn request_adapter(
    instance: &wgpu::Instance,
    compatible_surface: Option<&wgpu::Surface<'_>>,
    choice: AdapterChoice,
) -> Result<wgpu::Adapter, RenderError> {
    let power_preference = match choice {
        AdapterChoice::LowPower => wgpu::PowerPreference::LowPower,
        AdapterChoice::Auto | AdapterChoice::Software => wgpu::PowerPreference::HighPerformance,
    };
    let options = |force_fallback_adapter| wgpu::RequestAdapterOptions {
        power_preference,
        force_fallback_adapter,
        compatible_surface,
        ..Default::default()
    };
    let mut errors = Vec::new();
    if choice != AdapterChoice::Software {
        match instance.request_adapter(&options(false)).await {
            Ok(adapter) => return Ok(adapter),
            Err(e) => errors.push(format!("hardware: {e}")),
        }
    }
    match instance.request_adapter(&options(true)).await {
        Ok(adapter) => return Ok(adapter),
        Err(e) => errors.push(format!("software: {e}")),
    }
    // Some software adapters (lavapipe) are not flagged as fallback adapters on every wgpu
    // version: look for a CPU device among all adapters.
    let backends = wgpu::Backends::all();
    let adapters = instance.enumerate_adapters(backends).await;
    let surface_ok =
        |a: &wgpu::Adapter| compatible_surface.is_none_or(|s| a.is_surface_supported(s));
    if let Some(adapter) = adapters
        .iter()
        .find(|a| a.get_info().device_type == wgpu::DeviceType::Cpu && surface_ok(a))
        .or_else(|| {
            (choice != AdapterChoice::Software)
                .then(|| adapters.iter().find(|a| surface_ok(a)))
                .flatten()
        })
    {
        return Ok(adapter.clone());
    }
    Err(RenderError::NoAdapter {
        detail: if errors.is_empty() {
            "no adapters enumerated".to_owned()
        } else {
            errors.join("; ")
        },
    })
}
