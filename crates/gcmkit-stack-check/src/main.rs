//! `gcmkit-stack-check`: with `GCMKIT_ENGINE` set, every public AEAD call on that engine on
//! a 256 KiB thread; without it, itself once per engine this CPU has.

fn main() {
    let result = if std::env::var_os("GCMKIT_ENGINE").is_some() {
        gcmkit_stack_check::every_call_on_small_stack().map(|d| {
            println!("digest {d:016x}");
            Vec::new()
        })
    } else {
        std::env::current_exe()
            .map_err(|e| e.to_string())
            .and_then(|exe| gcmkit_stack_check::run_every_engine(&exe))
    };
    match result {
        Ok(engines) if engines.is_empty() => {}
        Ok(engines) => println!(
            "every call on a {} KiB stack: ok on {}, their ciphertexts alike",
            gcmkit_stack_check::STACK / 1024,
            engines.join(", ")
        ),
        Err(e) => {
            eprintln!("gcmkit-stack-check: {e}");
            std::process::exit(1);
        }
    }
}
