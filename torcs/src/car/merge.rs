//! A car's parameters as TORCS reads them: its category file merged with its car file
//! (`GfParmMergeHandles` with both sides kept, as TORCS's race manager loads a car): every
//! section and attribute of either, the car's value winning where both give one. Sections
//! are matched by name at each level, so a car with fewer engine `data points` than its
//! category keeps the category's remaining points, as in TORCS.

use crate::params::Section;

/// `category` with `car` laid over it (see the module documentation). The result is named
/// after the car; each attribute keeps the file and line it came from.
pub fn merge_sections(category: &Section, car: &Section) -> Section {
    let mut merged = category.clone();
    merged.name.clone_from(&car.name);
    merged.file = car.file.clone();
    merged.line = car.line;
    // A later attribute overrides an earlier one (`Section::attribute` takes the last).
    merged.attributes.extend(car.attributes.iter().cloned());
    for section in &car.sections {
        match merged.sections.iter_mut().find(|s| s.name == section.name) {
            Some(existing) => *existing = merge_sections(existing, section),
            None => merged.sections.push(section.clone()),
        }
    }
    merged
}
