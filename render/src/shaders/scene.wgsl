// Lit geometry: track surfaces, markings, objects, the car and its wheels. Materials are
// procedural (see `mesh::material` for the ids).

@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;
@group(1) @binding(0) var<uniform> model: Model;

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) uv: vec2<f32>,
    @location(4) material: u32,
};

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) uv: vec2<f32>,
    @location(4) local: vec3<f32>,
    @location(5) @interpolate(flat) material: u32,
};

@vertex
fn vs_main(in: VsIn) -> VsOut {
    let world = model.world_from_model * vec4<f32>(in.position, 1.0);
    var out: VsOut;
    out.clip = globals.clip_from_world * world;
    out.world = world.xyz;
    out.normal = (model.world_from_model * vec4<f32>(in.normal, 0.0)).xyz;
    out.color = in.color;
    out.uv = in.uv;
    out.local = in.position;
    out.material = in.material;
    return out;
}

fn hash2(p: vec2<f32>) -> f32 {
    var q = fract(p * vec2<f32>(0.1031, 0.1030));
    q += dot(q, q.yx + 33.33);
    return fract((q.x + q.y) * q.x);
}

fn vnoise(p: vec2<f32>) -> f32 {
    let i = floor(p);
    let f = fract(p);
    let u = f * f * (3.0 - 2.0 * f);
    let a = hash2(i);
    let b = hash2(i + vec2<f32>(1.0, 0.0));
    let c = hash2(i + vec2<f32>(0.0, 1.0));
    let d = hash2(i + vec2<f32>(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

// Fine procedural detail and the 3x3 shadow filter; off on the Low quality tier (set per
// pipeline, so the compiler drops the unused code).
override FINE_DETAIL: bool = true;

// Noise of frequency `freq` (1/m), faded to its mean where a pixel covers a period or more.
fn fine_noise(p: vec2<f32>, freq: f32, footprint: f32) -> f32 {
    if !FINE_DETAIL {
        return 0.5;
    }
    let fade = clamp(1.5 - footprint * freq, 0.0, 1.0);
    return mix(0.5, vnoise(p * freq), fade);
}

struct Surface {
    albedo: vec3<f32>,
    specular: f32,
    shininess: f32,
    reflect: f32,
};

fn surface_of(in: VsOut, footprint: f32) -> Surface {
    let p = in.local.xy;
    var s: Surface;
    s.albedo = in.color;
    s.specular = 0.04;
    s.shininess = 16.0;
    s.reflect = 0.0;
    switch in.material {
        case 1u: { // asphalt
            let patches = 0.88 + 0.24 * vnoise(p * 0.05);
            let grain = 0.9 + 0.2 * fine_noise(p, 9.0, footprint);
            let tar = 0.93 + 0.14 * fine_noise(p + 17.0, 1.3, footprint);
            s.albedo = vec3<f32>(0.055, 0.055, 0.06) * patches * grain * tar;
            s.specular = 0.08;
            s.shininess = 24.0;
        }
        case 2u: { // wet asphalt
            let patches = 0.8 + 0.4 * vnoise(p * 0.07);
            s.albedo = vec3<f32>(0.022, 0.023, 0.026) * patches;
            s.specular = 0.5;
            s.shininess = 90.0;
            s.reflect = 0.22;
        }
        case 3u: { // concrete slabs
            let joint = min(abs(fract(p.x / 4.0 + 0.5) - 0.5), abs(fract(p.y / 4.0 + 0.5) - 0.5)) * 4.0;
            let line = smoothstep(0.0, 0.03 + footprint, joint);
            s.albedo = vec3<f32>(0.28, 0.27, 0.25) * (0.85 + 0.3 * fine_noise(p, 3.0, footprint)) * mix(0.6, 1.0, line);
            s.specular = 0.05;
        }
        case 4u: { // kerb: red and white blocks, one metre each
            let block = fract(in.uv.x / 2.0);
            let edge = clamp(footprint * 0.5, 0.02, 0.5);
            let w = smoothstep(0.5 - edge, 0.5 + edge, block) * (1.0 - smoothstep(1.0 - edge, 1.0, block));
            s.albedo = mix(vec3<f32>(0.55, 0.02, 0.015), vec3<f32>(0.7, 0.7, 0.68), w);
            s.specular = 0.1;
        }
        case 5u, 10u: { // grass, near and far
            let stripes = 0.88 + 0.12 * step(0.5, fract(p.x / 12.0));
            let blotch = 0.75 + 0.5 * vnoise(p * 0.05);
            let blades = 0.8 + 0.4 * fine_noise(p, 4.0, footprint);
            var g = vec3<f32>(0.045, 0.11, 0.018);
            if in.material == 10u {
                g = vec3<f32>(0.05, 0.1, 0.025);
            }
            s.albedo = g * stripes * blotch * blades;
            s.specular = 0.02;
        }
        case 6u: { // gravel
            let speckle = fine_noise(p, 14.0, footprint);
            let stones = 0.75 + 0.5 * fine_noise(p + 5.0, 3.0, footprint);
            s.albedo = vec3<f32>(0.30, 0.27, 0.22) * stones * (0.7 + 0.6 * speckle);
            s.specular = 0.03;
        }
        case 7u: { // sand
            let ripple = 0.9 + 0.1 * sin(p.x * 2.0 + 3.0 * vnoise(p * 0.3));
            s.albedo = vec3<f32>(0.55, 0.44, 0.27) * ripple * (0.9 + 0.2 * fine_noise(p, 5.0, footprint));
            s.specular = 0.03;
        }
        case 8u: { // ice
            s.albedo = vec3<f32>(0.62, 0.72, 0.82) * (0.9 + 0.2 * vnoise(p * 0.3));
            s.specular = 0.8;
            s.shininess = 120.0;
            s.reflect = 0.25;
        }
        case 9u: { // road paint
            s.albedo = in.color * 0.75;
            s.specular = 0.1;
        }
        case 11u: { // car paint, glass, chrome
            s.specular = 0.12;
            s.shininess = 60.0;
            s.reflect = 0.1;
        }
        default: {}
    }
    return s;
}

fn shadow_factor(world: vec3<f32>, n: vec3<f32>) -> f32 {
    if globals.params.w < 0.5 {
        return 1.0;
    }
    // Normal offset against acne on slopes.
    let texel = globals.params.z;
    let p = globals.light_clip_from_world * vec4<f32>(world + n * 0.03, 1.0);
    let ndc = p.xyz / p.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || ndc.z > 1.0 || ndc.z < 0.0 {
        return 1.0;
    }
    if !FINE_DETAIL {
        // One bilinear comparison: a 2x2 filter.
        return textureSampleCompareLevel(shadow_map, shadow_sampler, uv, ndc.z - 0.0015);
    }
    var lit = 0.0;
    for (var dy = -1; dy <= 1; dy++) {
        for (var dx = -1; dx <= 1; dx++) {
            let o = vec2<f32>(f32(dx), f32(dy)) * texel;
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + o, ndc.z - 0.0015);
        }
    }
    // Fade out towards the map's border, so its edge never shows.
    let border = min(min(uv.x, 1.0 - uv.x), min(uv.y, 1.0 - uv.y));
    return mix(1.0, lit / 9.0, smoothstep(0.0, 0.08, border));
}

@fragment
fn fs_main(in: VsOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return shade(in, front);
}

/// The ghost car: the same shading, washed towards a pale blue and see-through (blended
/// over the scene, drawn without writing depth).
@fragment
fn fs_ghost(in: VsOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let c = shade(in, front);
    return vec4<f32>(mix(c.rgb, vec3<f32>(0.55, 0.8, 1.0), 0.55), 0.38);
}

fn shade(in: VsOut, front: bool) -> vec4<f32> {
    let footprint = length(fwidth(in.local.xy));
    if in.material == 12u {
        let dist = length(in.world);
        let view = -in.world / max(dist, 1e-4);
        let fog_amount = 1.0 - exp(-dist * globals.params.x);
        return encode_output(mix(in.color * 3.0, sky_color(-view), fog_amount));
    }
    let s = surface_of(in, footprint);
    return encode_output(lit(s, in.normal, front, in.world));
}

// A surface lit by the sun (with the shadow map), the sky hemisphere and the fog, at the
// camera-relative position `world` with the interpolated normal `normal` (reversed on back
// faces). Shared by the imported scenes' shader.
fn lit(s: Surface, normal: vec3<f32>, front: bool, world: vec3<f32>) -> vec3<f32> {
    var n = normalize(normal);
    if !front {
        n = -n;
    }
    let dist = length(world);
    let view = -world / max(dist, 1e-4);
    let fog_amount = 1.0 - exp(-dist * globals.params.x);
    let l = globals.sun_dir.xyz;
    let ndl = max(dot(n, l), 0.0);
    let shadow = select(1.0, shadow_factor(world, n), ndl > 0.0);
    let hemi = mix(globals.ground_tint.rgb, globals.sky_zenith.rgb * 0.9 + globals.sky_horizon.rgb * 0.3, 0.5 + 0.5 * n.z);
    let h = normalize(l + view);
    let spec = s.specular * pow(max(dot(n, h), 0.0), s.shininess) * (s.shininess + 8.0) / 25.0;
    var col = s.albedo * (hemi * 0.55 + globals.sun_color.rgb * ndl * shadow);
    col += globals.sun_color.rgb * spec * ndl * shadow;
    if s.reflect > 0.0 {
        let r = reflect(-view, n);
        let fresnel = s.reflect + (1.0 - s.reflect) * pow(1.0 - max(dot(n, view), 0.0), 5.0);
        col = mix(col, sky_color(r) * mix(0.45, 0.75, shadow), clamp(fresnel * s.reflect * 2.0, 0.0, 0.7));
    }
    return mix(col, sky_color(-view), fog_amount);
}
