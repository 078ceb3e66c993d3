//! OpenSSL's libcrypto as a peer (cargo feature `openssl`; needs OpenSSL 3).
//!
//! Algorithms are fetched by name once (`EVP_MD_fetch`, `EVP_CIPHER_fetch`) and run
//! through one reused context, so libcrypto pays no per-operation lookup, as in
//! `openssl speed` itself.

use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use openssl::md::Md;
use openssl::md_ctx::MdCtx;
use openssl::provider::Provider;

use crate::registry::{Evp, Runner, key};

/// The providers `speed` loads; they stay loaded while this lives.
pub struct Providers {
    _default: Provider,
    _legacy: Option<Provider>,
}

/// Loads the `default` provider and, if it is installed, the `legacy` one (RC4,
/// IDEA, Blowfish, CAST5, RC2, single DES and MD2 live there).
pub fn load_providers() -> Result<Providers, String> {
    let default = Provider::try_load(None, "default", true)
        .map_err(|e| format!("cannot load OpenSSL's default provider: {e}"))?;
    let legacy = match Provider::try_load(None, "legacy", true) {
        Ok(provider) => Some(provider),
        Err(e) => {
            eprintln!("speed: note: OpenSSL's legacy provider is not available ({e})");
            None
        }
    };
    Ok(Providers {
        _default: default,
        _legacy: legacy,
    })
}

/// The version string of the libcrypto in use.
pub fn version() -> &'static str {
    openssl::version::version()
}

/// A libcrypto runner for `evp`, keyed like ours; an error if libcrypto lacks it.
pub fn runner(evp: Evp) -> Result<Box<dyn Runner>, String> {
    let fail = |e: openssl::error::ErrorStack| format!("OpenSSL {}: {e}", evp.name());
    match evp {
        Evp::Digest(name) => {
            let md = Md::fetch(None, name, None).map_err(fail)?;
            let ctx = MdCtx::new().map_err(fail)?;
            Ok(Box::new(DigestRunner {
                md,
                ctx,
                out: [0; 64],
            }))
        }
        Evp::Cipher(name) => {
            let cipher = Cipher::fetch(None, name, None).map_err(fail)?;
            let mut ctx = CipherCtx::new().map_err(fail)?;
            let iv = vec![0; cipher.iv_length()];
            let iv = (!iv.is_empty()).then_some(&iv[..]);
            ctx.encrypt_init(Some(&cipher), Some(key(cipher.key_length())), iv)
                .map_err(fail)?;
            ctx.set_padding(false);
            if cipher.block_size() > 1 {
                return Ok(Box::new(BlockCipherRunner {
                    ctx,
                    out: Vec::new(),
                }));
            }
            Ok(Box::new(CipherRunner(ctx)))
        }
    }
}

/// `EVP_DigestInit_ex` + `EVP_DigestUpdate` + `EVP_DigestFinal_ex` per operation.
struct DigestRunner {
    md: Md,
    ctx: MdCtx,
    out: [u8; 64],
}

impl Runner for DigestRunner {
    fn run(&mut self, buf: &mut [u8]) {
        self.ctx.digest_init(&self.md).expect("EVP_DigestInit_ex");
        self.ctx.digest_update(buf).expect("EVP_DigestUpdate");
        self.ctx
            .digest_final(&mut self.out)
            .expect("EVP_DigestFinal_ex");
    }

    fn output(&mut self, input: &[u8]) -> Vec<u8> {
        self.run(&mut input.to_vec());
        self.out[..self.md.size()].to_vec()
    }
}

/// `EVP_CipherUpdate` in place, the context carrying the cipher's state.
struct CipherRunner(CipherCtx);

impl Runner for CipherRunner {
    fn run(&mut self, buf: &mut [u8]) {
        let len = buf.len();
        self.0
            .cipher_update_inplace(buf, len)
            .expect("EVP_CipherUpdate");
    }
}

/// `EVP_CipherUpdate` for block ciphers: the `openssl` crate wants one spare block of
/// output space, so it writes to a scratch buffer that is copied back.
struct BlockCipherRunner {
    ctx: CipherCtx,
    out: Vec<u8>,
}

impl Runner for BlockCipherRunner {
    fn run(&mut self, buf: &mut [u8]) {
        self.out.resize(buf.len() + 16, 0);
        let n = self
            .ctx
            .cipher_update(buf, Some(&mut self.out))
            .expect("EVP_CipherUpdate");
        buf[..n].copy_from_slice(&self.out[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::ALGS;

    #[test]
    fn libcrypto_agrees_with_ours() {
        let _providers = load_providers().unwrap();
        let input: Vec<u8> = (0..1040u32).map(|i| (i * 13 + 1) as u8).collect();
        let mut checked = 0;
        for alg in ALGS {
            let Some(evp) = alg.openssl else { continue };
            // Legacy algorithms need the legacy provider, which a system may lack.
            let mut theirs = match runner(evp) {
                Ok(runner) => runner,
                Err(e) => {
                    println!("SKIP {}: {e}", alg.name);
                    continue;
                }
            };
            checked += 1;
            let mut ours = (alg.ours)();
            for _ in 0..2 {
                assert_eq!(ours.output(&input), theirs.output(&input), "{}", alg.name);
            }
        }
        assert!(checked > 0, "no algorithm could be fetched from libcrypto");
    }
}
