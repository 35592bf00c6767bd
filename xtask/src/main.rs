fn main() {
    let l = pmu_defs::Loader::new().with_defaults().finish();
    print!("{}", l.render_diagnostics());
    println!("{} generations", l.model.generations.len());
}
