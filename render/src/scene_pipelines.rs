//! The scene's render pipelines: the lit pipeline for the ground (both faces) and solids
//! (back faces culled), the see-through ghost car, the sky behind everything, and the
//! shadow-map depth pass. Built once per [`crate::scene::SceneRenderer`].

use crate::mesh::Vertex;
use crate::settings::RenderSettings;

/// Depth format of every pass.
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The pipelines (see the module docs).
pub(crate) struct ScenePipelines {
    /// Lit, both faces: the track's ground.
    pub ground: wgpu::RenderPipeline,
    /// Lit, back faces culled: props, body, wheels, cockpit.
    pub solid: wgpu::RenderPipeline,
    /// See-through, depth-tested without writing depth: the ghost car.
    pub ghost: wgpu::RenderPipeline,
    /// The sky, only where nothing was drawn.
    pub sky: wgpu::RenderPipeline,
    /// Depth only, from the sun: the shadow map.
    pub shadow: wgpu::RenderPipeline,
}

/// The bind group layouts the pipelines are built against.
pub(crate) struct SceneLayouts<'a> {
    /// Globals and the shadow map, for the lit passes.
    pub main: &'a wgpu::BindGroupLayout,
    /// Globals, for the shadow pass.
    pub shadow: &'a wgpu::BindGroupLayout,
    /// One model matrix (dynamic offset).
    pub model: &'a wgpu::BindGroupLayout,
}

impl ScenePipelines {
    /// The pipelines for `target_format` at `sample_count` samples.
    pub(crate) fn new(
        device: &wgpu::Device,
        layouts: &SceneLayouts<'_>,
        target_format: wgpu::TextureFormat,
        sample_count: u32,
        settings: &RenderSettings,
    ) -> Self {
        let common = include_str!("shaders/common.wgsl");
        let module = |label: &str, body: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(format!("{common}\n{body}").into()),
            })
        };
        let scene_module = module("scene shader", include_str!("shaders/scene.wgsl"));
        let sky_module = module("sky shader", include_str!("shaders/sky.wgsl"));
        let shadow_module = module("shadow shader", include_str!("shaders/shadow.wgsl"));

        let main_pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene pipeline layout"),
            bind_group_layouts: &[Some(layouts.main), Some(layouts.model)],
            immediate_size: 0,
        });
        let shadow_pipeline_layout =
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("shadow pipeline layout"),
                bind_group_layouts: &[Some(layouts.shadow), Some(layouts.model)],
                immediate_size: 0,
            });
        let multisample = wgpu::MultisampleState {
            count: sample_count,
            mask: !0,
            alpha_to_coverage_enabled: false,
        };
        let colour_targets = [Some(wgpu::ColorTargetState {
            format: target_format,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        })];
        let fragment_constants = [("FINE_DETAIL", f64::from(u8::from(settings.fine_detail)))];
        let ghost_targets = [Some(wgpu::ColorTargetState {
            format: target_format,
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            write_mask: wgpu::ColorWrites::COLOR,
        })];
        let lit = |label: &str,
                   cull_mode: Option<wgpu::Face>,
                   bias: wgpu::DepthBiasState,
                   ghost: bool| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&main_pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &scene_module,
                    entry_point: Some("vs_main"),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    buffers: &[Some(Vertex::layout())],
                },
                primitive: wgpu::PrimitiveState {
                    cull_mode,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(!ghost),
                    depth_compare: Some(wgpu::CompareFunction::GreaterEqual),
                    stencil: wgpu::StencilState::default(),
                    bias,
                }),
                multisample,
                fragment: Some(wgpu::FragmentState {
                    module: &scene_module,
                    entry_point: Some(if ghost { "fs_ghost" } else { "fs_main" }),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &fragment_constants,
                        ..Default::default()
                    },
                    targets: if ghost {
                        &ghost_targets
                    } else {
                        &colour_targets
                    },
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let lit_pipeline =
            |label: &str, cull_mode: Option<wgpu::Face>, bias: wgpu::DepthBiasState| {
                lit(label, cull_mode, bias, false)
            };
        let ghost_pipeline = lit(
            "ghost pipeline",
            Some(wgpu::Face::Back),
            wgpu::DepthBiasState::default(),
            true,
        );
        let ground_pipeline =
            lit_pipeline("ground pipeline", None, wgpu::DepthBiasState::default());
        let solid_pipeline = lit_pipeline(
            "solid pipeline",
            Some(wgpu::Face::Back),
            wgpu::DepthBiasState::default(),
        );
        let sky_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("sky pipeline"),
            layout: Some(&main_pipeline_layout),
            vertex: wgpu::VertexState {
                module: &sky_module,
                entry_point: Some("vs_sky"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::GreaterEqual),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample,
            fragment: Some(wgpu::FragmentState {
                module: &sky_module,
                entry_point: Some("fs_sky"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &colour_targets,
            }),
            multiview_mask: None,
            cache: None,
        });
        let shadow_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("shadow pipeline"),
            layout: Some(&shadow_pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shadow_module,
                entry_point: Some("vs_shadow"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[Some(Vertex::layout())],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState {
                    constant: 2,
                    slope_scale: 2.0,
                    clamp: 0.0,
                },
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: None,
            multiview_mask: None,
            cache: None,
        });
        Self {
            ground: ground_pipeline,
            solid: solid_pipeline,
            ghost: ghost_pipeline,
            sky: sky_pipeline,
            shadow: shadow_pipeline,
        }
    }
}
