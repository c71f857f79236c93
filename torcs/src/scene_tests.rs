//! Tests of the scene readers on small hand-made inputs: SGI images byte for byte (verbatim
//! and RLE, 1 to 4 channels, 1 and 2 bytes per channel), the AC3D reader and the scene built
//! from it (frame, strips, fans, normals, batches), and truncated or damaged input of both.

// The numbers compared are parsed from the same decimal text: exactly equal.
#![allow(clippy::float_cmp)]

use std::path::{Path, PathBuf};

use crate::ac3d::parse_ac3d;
use crate::image::TextureImage;
use crate::sgi::{SgiError, decode_sgi};
use crate::texture_image::decode_image;
use crate::track::scene_file::build_scene;

/// A 512-byte SGI header.
fn sgi_header(rle: bool, bpc: u8, dimension: u16, x: u16, y: u16, z: u16) -> Vec<u8> {
    let mut h = vec![0u8; 512];
    h[0..2].copy_from_slice(&474u16.to_be_bytes());
    h[2] = u8::from(rle);
    h[3] = bpc;
    h[4..6].copy_from_slice(&dimension.to_be_bytes());
    h[6..8].copy_from_slice(&x.to_be_bytes());
    h[8..10].copy_from_slice(&y.to_be_bytes());
    h[10..12].copy_from_slice(&z.to_be_bytes());
    h[16..20].copy_from_slice(&255u32.to_be_bytes());
    h
}

/// An RLE file from its rows' codes, in table order (`y + z * ysize`).
fn sgi_rle(bpc: u8, x: u16, y: u16, z: u16, rows: &[Vec<u8>]) -> Vec<u8> {
    let mut file = sgi_header(true, bpc, 3, x, y, z);
    let mut offset = 512 + 8 * rows.len();
    let mut starts = Vec::new();
    let mut lengths = Vec::new();
    for row in rows {
        starts.extend_from_slice(&u32::try_from(offset).unwrap().to_be_bytes());
        lengths.extend_from_slice(&u32::try_from(row.len()).unwrap().to_be_bytes());
        offset += row.len();
    }
    file.extend(starts);
    file.extend(lengths);
    for row in rows {
        file.extend_from_slice(row);
    }
    file
}

#[test]
fn sgi_verbatim_rgb_is_decoded_top_row_first() {
    // 2 x 2, three channels: planes R, G, B, each bottom row first.
    let mut file = sgi_header(false, 1, 3, 2, 2, 3);
    file.extend_from_slice(&[10, 11, 12, 13]); // R: bottom (10, 11), top (12, 13)
    file.extend_from_slice(&[20, 21, 22, 23]); // G
    file.extend_from_slice(&[30, 31, 32, 33]); // B
    let image = decode_sgi(&file).expect("decodes");
    assert_eq!((image.width, image.height, image.has_alpha), (2, 2, false));
    #[rustfmt::skip]
    let expected = [
        12, 22, 32, 255, 13, 23, 33, 255,
        10, 20, 30, 255, 11, 21, 31, 255,
    ];
    assert_eq!(image.rgba, expected);
}

#[test]
fn sgi_verbatim_grey_alpha_and_two_byte_channels() {
    // 2 x 1, grey and alpha, two bytes per channel (the high byte is kept).
    let mut file = sgi_header(false, 2, 3, 2, 1, 2);
    file.extend_from_slice(&[0x80, 0x01, 0x40, 0xff]); // grey 0x80.., 0x40..
    file.extend_from_slice(&[0xff, 0x00, 0x10, 0x00]); // alpha 0xff.., 0x10..
    let image = decode_sgi(&file).expect("decodes");
    assert_eq!(image.rgba, [0x80, 0x80, 0x80, 0xff, 0x40, 0x40, 0x40, 0x10]);
    assert!(image.has_alpha);
}

#[test]
fn sgi_rle_repeats_and_copies_runs() {
    // 3 x 2, one channel: the bottom row repeats 7 three times, the top copies 1, 2, 3.
    let rows = vec![vec![0x03, 7, 0x00], vec![0x83, 1, 2, 3, 0x00]];
    let file = sgi_rle(1, 3, 2, 1, &rows);
    let image = decode_sgi(&file).expect("decodes");
    #[rustfmt::skip]
    let expected = [
        1, 1, 1, 255, 2, 2, 2, 255, 3, 3, 3, 255,
        7, 7, 7, 255, 7, 7, 7, 255, 7, 7, 7, 255,
    ];
    assert_eq!(image.rgba, expected);
    assert!(!image.has_alpha);
    // The same through the format sniffing of `decode_image`.
    assert_eq!(decode_image(&file).expect("decodes"), image);
}

#[test]
fn sgi_rle_rgba_with_mixed_runs_and_two_byte_units() {
    // 2 x 1, four channels, one byte: each channel's row mixes a copy and a repeat.
    let rows = vec![
        vec![0x81, 9, 0x01, 8, 0x00], // R: 9, 8
        vec![0x02, 5, 0x00],          // G: 5, 5
        vec![0x82, 6, 4, 0x00],       // B: 6, 4
        vec![0x01, 255, 0x01, 0x00],  // A: 255, 0
    ];
    let image = decode_sgi(&sgi_rle(1, 2, 1, 4, &rows)).expect("decodes");
    assert_eq!(image.rgba, [9, 5, 6, 255, 8, 5, 4, 0]);
    assert!(image.has_alpha);
    // Two bytes a unit: the count in the low byte, the value's high byte kept.
    let rows = vec![vec![0x00, 0x82, 0x12, 0x34, 0x56, 0x78, 0x00, 0x00]];
    let image = decode_sgi(&sgi_rle(2, 2, 1, 1, &rows)).expect("decodes");
    assert_eq!(image.rgba, [0x12, 0x12, 0x12, 255, 0x56, 0x56, 0x56, 255]);
}

#[test]
fn sgi_damage_is_an_error_never_a_panic() {
    let rows = vec![vec![0x03, 7, 0x00], vec![0x83, 1, 2, 3, 0x00]];
    let good = sgi_rle(1, 3, 2, 1, &rows);
    for len in 0..good.len() {
        let _ = decode_sgi(&good[..len]);
    }
    assert_eq!(decode_sgi(&good[..100]), Err(SgiError::Truncated("header")));
    // A run past the end of its row, and a row code past the end of the file.
    let long_run = sgi_rle(1, 3, 2, 1, &[vec![0x05, 7, 0x00], rows[1].clone()]);
    assert!(matches!(
        decode_sgi(&long_run),
        Err(SgiError::BadRle { row: 0, .. })
    ));
    assert!(decode_sgi(&good[..good.len() - 2]).is_err());
    let mut wrong = good.clone();
    wrong[2] = 7;
    assert!(matches!(decode_sgi(&wrong), Err(SgiError::Unsupported(_))));
    let mut verbatim = sgi_header(false, 1, 3, 4, 4, 3);
    verbatim.extend_from_slice(&[0; 40]);
    assert_eq!(
        decode_sgi(&verbatim),
        Err(SgiError::Truncated("verbatim pixel data"))
    );
    // Every byte of the header and tables changed in turn: still no panic.
    for i in 0..good.len() {
        for v in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut bad = good.clone();
            bad[i] = v;
            let _ = decode_sgi(&bad);
        }
    }
    assert!(decode_image(b"GIF89a").is_err());
}

const MODEL: &str = r#"AC3Db
MATERIAL "grey" rgb 0.5 0.5 0.5 amb 0.8 0.8 0.8 emis 0 0 0 spec 0 0 0 shi 10 trans 0
MATERIAL "red" rgb 1 0 0 amb 0.8 0.8 0.8 emis 0 0 0 spec 0 0 0 shi 10 trans 0
OBJECT world
kids 2
OBJECT poly
name "road"
texture "road.png" base
texture "shadow.rgb" tiled
texture empty_texture_no_mapping skids
texture empty_texture_no_mapping shad
numvert 4
0 0 0 0 1 0
10 0 0 0 1 0
0 0 -10 0 1 0
10 0 -10 0 1 0
numsurf 1
SURF 0x14
mat 0
refs 5
0 0 0 0.1 0.2
1 1 0 0.3 0.4
2 0 1 0.5 0.6
3 1 1 0.7 0.8
3 1 1 0.7 0.8
kids 0
OBJECT group
name "g"
loc 100 0 0
kids 1
OBJECT poly
name "box"
numvert 4
0 0 0
1 0 0
1 1 0
0 1 0
numsurf 2
SURF 0x20
mat 1
refs 4
0 0 0
1 1 0
2 1 1
3 0 1
SURF 0x02
mat 1
refs 2
0 0 0
1 1 0
kids 0
"#;

fn no_textures(name: &str) -> Result<(PathBuf, TextureImage), String> {
    Err(format!("{name} is not here"))
}

#[test]
fn ac3d_objects_layers_transforms_and_refs() {
    let file = parse_ac3d(MODEL).expect("parses");
    assert_eq!(file.materials.len(), 2);
    assert_eq!(file.materials[1].rgb, [1.0, 0.0, 0.0]);
    assert_eq!(file.objects.len(), 2);
    let road = &file.objects[0];
    assert_eq!(road.textures[0].as_deref(), Some("road.png"));
    assert_eq!(road.textures[1].as_deref(), Some("shadow.rgb"));
    assert_eq!(road.textures[2], None);
    assert_eq!(road.normals.as_ref().map(Vec::len), Some(4));
    assert_eq!(road.surfaces[0].kind(), 4);
    assert_eq!(road.surfaces[0].refs[1].uv[1], [0.3, 0.4]);
    // The group's `loc` moves its child.
    let boxed = &file.objects[1];
    assert_eq!(boxed.vertices[1], [101.0, 0.0, 0.0]);
    assert!(boxed.surfaces[0].two_sided());
}

#[test]
fn scene_is_in_the_world_frame_with_strips_fans_and_missing_textures() {
    let file = parse_ac3d(MODEL).expect("parses");
    let scene = build_scene(Path::new("model.acc"), &file, no_textures);
    assert_eq!(scene.missing_textures, ["road.png", "shadow.rgb"]);
    assert!(scene.warnings.iter().any(|w| w.contains("road.png")));
    assert!(scene.warnings.iter().any(|w| w.contains("1 line surfaces")));
    // The strip 0 1 2 3 3 has two real triangles (the last is degenerate); the square polygon two as a fan.
    assert_eq!(scene.triangle_count(), 4);
    for batch in &scene.batches {
        let covered: u32 = batch.chunks.iter().map(|c| c.index_count).sum();
        assert_eq!(covered as usize, batch.indices.len());
        for tri in batch.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| batch.vertices[tri[k] as usize]);
            let p = |v: crate::track::scene_file::SceneVertex| {
                [0, 1, 2].map(|k| f64::from(v.position[k]) + scene.origin[k])
            };
            let (pa, pb, pc) = (p(a), p(b), p(c));
            let u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
            let v = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
            let cross_z = u[0] * v[1] - u[1] * v[0];
            let cross_y = u[2] * v[0] - u[0] * v[2];
            if batch.two_sided {
                // The box stands in the file's x-y plane: vertical in the world, facing -y
                // (the file's +z, towards the viewer, is the world's -y).
                assert!(cross_y < 0.0, "box faces -y");
                assert!(pa[0] >= 100.0);
            } else {
                // File (x, 0, -z) is world (x, z, 0): the road lies flat, facing up,
                // wound counter-clockwise seen from above; normals up.
                assert!(
                    cross_z > 0.0,
                    "road triangles wind counter-clockwise from above"
                );
                assert!(pa[2].abs() < 1e-9 && pa[1] >= 0.0);
                assert!((a.normal[2] - 1.0).abs() < 1e-6);
            }
        }
    }
    // The road's plain colour is its material's, linear; uv v flipped; tiled uv kept.
    let road = scene.batches.iter().find(|b| !b.two_sided).expect("road");
    assert!((road.colour[0] - 0.214).abs() < 1e-3);
    let v1 = road
        .vertices
        .iter()
        .find(|v| v.uv_tiled[0] == 0.3)
        .expect("vertex 1");
    assert_eq!(v1.uv, [1.0, 1.0]);
    assert!((v1.uv_tiled[1] - 0.6).abs() < 1e-6);
}

#[test]
fn smooth_normals_average_only_within_the_crease_angle() {
    // A floor (file y = 0) and a wall (file z = 0) meeting at 90 degrees along vertices 0-1.
    let model = |crease: &str| {
        format!(
            "AC3Db\nMATERIAL \"\" rgb 1 1 1 amb 1 1 1 emis 0 0 0 spec 0 0 0 shi 1 trans 0\n\
             OBJECT poly\n{crease}numvert 5\n0 0 0\n1 0 0\n1 0 -1\n0 1 0\n1 1 0\nnumsurf 2\n\
             SURF 0x10\nmat 0\nrefs 3\n0 0 0\n1 0 0\n2 0 0\n\
             SURF 0x10\nmat 0\nrefs 3\n1 0 0\n0 0 0\n3 0 0\nkids 0\n"
        )
    };
    let normals = |crease: &str| -> Vec<[f32; 3]> {
        let file = parse_ac3d(&model(crease)).expect("parses");
        let scene = build_scene(Path::new("corner.ac"), &file, no_textures);
        scene.batches[0].vertices.iter().map(|v| v.normal).collect()
    };
    let near = |a: [f32; 3], b: [f32; 3]| (0..3).all(|k| (a[k] - b[k]).abs() < 1e-5);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    // Default crease (61 degrees): the floor faces world up, the wall world +y.
    let sharp = normals("");
    assert!(
        sharp
            .iter()
            .all(|&n| near(n, [0.0, 0.0, 1.0]) || near(n, [0.0, 1.0, 0.0]))
    );
    // Crease 100 degrees: the shared corners blend, the floor's own corner does not.
    let soft = normals("crease 100\n");
    assert!(soft.iter().any(|&n| near(n, [0.0, h, h])), "{soft:?}");
    assert!(soft.iter().any(|&n| near(n, [0.0, 0.0, 1.0])), "{soft:?}");
}

#[test]
fn truncated_or_damaged_models_are_errors_with_a_line() {
    for len in 0..MODEL.len() {
        let Some(cut) = MODEL.get(..len) else {
            continue;
        };
        // Either it parses (cut at an object boundary) or it names a line; never a panic.
        if let Err(e) = parse_ac3d(cut) {
            assert!(e.line >= 1 && !e.message.is_empty());
        }
    }
    // The file may end before all announced children (TORCS's .acc files do).
    let short = parse_ac3d(&MODEL[..MODEL.find("OBJECT group").unwrap()]).expect("parses");
    assert_eq!((short.objects.len(), short.missing_children), (1, 1));
    let e = parse_ac3d("AC3Db\nOBJECT poly\nnumvert 2\n0 0 0\n").expect_err("short");
    assert!(e.message.contains("vertex list"), "{e}");
    let e = parse_ac3d("hello").expect_err("no header");
    assert_eq!(e.line, 1);
    let bad_ref = MODEL.replace("3 1 1 0.7 0.8", "9 1 1 0.7 0.8");
    let e = parse_ac3d(&bad_ref).expect_err("vertex 9");
    assert!(e.message.contains("vertex 9"), "{e}");
    let bad_number = MODEL.replace("10 0 -10", "10 zero -10");
    assert!(parse_ac3d(&bad_number).is_err());
    let deep = format!("AC3Db\n{}", "OBJECT group\nkids 1\n".repeat(100));
    assert!(
        parse_ac3d(&deep)
            .expect_err("deep")
            .message
            .contains("nested")
    );
    // Garbage bytes in every position of a line: no panic.
    for i in (0..MODEL.len()).step_by(7) {
        let mut bytes = MODEL.as_bytes().to_vec();
        bytes[i] = b'#';
        let _ = parse_ac3d(&String::from_utf8_lossy(&bytes));
    }
}
