// egui's meshes for a software rasteriser: the same sums as egui-wgpu's shader with its
// hardware filtering and no dithering, and not one branch. (A software rasteriser such as
// llvmpipe runs both sides of every branch, uniform or not, on every pixel: egui-wgpu's
// shader thereby paid for its unused manual filtering, wrap modes and dithering.)
//
// Vertex colours and textures are premultiplied sRGB (gamma) values, as egui makes them.
// Into a plain (non-sRGB) target `fs_ui` writes them as they are, so blending happens in
// gamma space, as egui expects; into an sRGB target `fs_ui_srgb_target` writes their linear
// values, which the target encodes again (egui-wgpu does the same).

struct Screen {
    // The target's size in egui points.
    size_points: vec2<f32>,
    _pad: vec2<f32>,
};

@group(0) @binding(0) var<uniform> screen: Screen;
@group(1) @binding(0) var ui_texture: texture_2d<f32>;
@group(1) @binding(1) var ui_sampler: sampler;

struct UiOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) colour: vec4<f32>,
};

@vertex
fn vs_ui(
    @location(0) pos_points: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) colour: u32,
) -> UiOut {
    var out: UiOut;
    out.clip = vec4<f32>(
        2.0 * pos_points.x / screen.size_points.x - 1.0,
        1.0 - 2.0 * pos_points.y / screen.size_points.y,
        0.0,
        1.0,
    );
    out.uv = uv;
    out.colour = unpack4x8unorm(colour);
    return out;
}

@fragment
fn fs_ui(in: UiOut) -> @location(0) vec4<f32> {
    return in.colour * textureSample(ui_texture, ui_sampler, in.uv);
}

// 0-1 linear from 0-1 sRGB gamma.
fn linear_from_gamma(srgb: vec3<f32>) -> vec3<f32> {
    let lower = srgb / 12.92;
    let higher = pow((srgb + 0.055) / 1.055, vec3<f32>(2.4));
    return select(higher, lower, srgb < vec3<f32>(0.04045));
}

@fragment
fn fs_ui_srgb_target(in: UiOut) -> @location(0) vec4<f32> {
    let gamma = in.colour * textureSample(ui_texture, ui_sampler, in.uv);
    return vec4<f32>(linear_from_gamma(gamma.rgb), gamma.a);
}
