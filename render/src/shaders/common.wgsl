// Shared by every scene shader: the per-frame globals, the per-draw model, tone mapping and
// the sky colour. Positions are camera-relative (world minus eye) in metres, z up.

struct Globals {
    clip_from_world: mat4x4<f32>,
    light_clip_from_world: mat4x4<f32>,
    world_dir_from_clip: mat4x4<f32>,
    // xyz: unit vector towards the sun.
    sun_dir: vec4<f32>,
    // rgb: sun radiance.
    sun_color: vec4<f32>,
    sky_zenith: vec4<f32>,
    sky_horizon: vec4<f32>,
    ground_tint: vec4<f32>,
    // x: fog density (1/m), y: 1 when the target needs sRGB encoding in the shader,
    // z: shadow map texel size (uv), w: 1 when shadows are on.
    params: vec4<f32>,
};

struct Model {
    world_from_model: mat4x4<f32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;

fn sky_color(dir: vec3<f32>) -> vec3<f32> {
    let up = clamp(dir.z, -1.0, 1.0);
    let t = pow(max(up, 0.0), 0.45);
    var col = mix(globals.sky_horizon.rgb, globals.sky_zenith.rgb, t);
    // Below the horizon: a darker haze (only seen past the far ground's edge).
    col = mix(col, globals.sky_horizon.rgb * 0.75, smoothstep(0.0, -0.08, up));
    let s = max(dot(dir, globals.sun_dir.xyz), 0.0);
    col += globals.sun_color.rgb * (0.06 * pow(s, 6.0) + 0.25 * pow(s, 200.0));
    col += vec3<f32>(12.0, 11.0, 9.5) * smoothstep(0.99985, 0.99992, s);
    return col;
}

// Narkowicz's fit of the ACES filmic curve.
fn tone_map(x: vec3<f32>) -> vec3<f32> {
    let a = 2.51;
    let b = 0.03;
    let c = 2.43;
    let d = 0.59;
    let e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), vec3<f32>(0.0), vec3<f32>(1.0));
}

fn encode_output(linear: vec3<f32>) -> vec4<f32> {
    let mapped = tone_map(linear);
    if globals.params.y > 0.5 {
        let lo = mapped * 12.92;
        let hi = 1.055 * pow(mapped, vec3<f32>(1.0 / 2.4)) - 0.055;
        return vec4<f32>(select(hi, lo, mapped <= vec3<f32>(0.0031308)), 1.0);
    }
    return vec4<f32>(mapped, 1.0);
}
