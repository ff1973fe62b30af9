// Loaded before every test file (bunfig.toml): what the whole suite's processes share.
//
// Password hashes at argon2id's OWASP floor (19 MiB) rather than the 64 MiB default: every browser test makes an
// account with a password and signs in, at ~200 ms of CPU a hash at the default and ~55 ms here. Servers and CLIs the
// tests start inherit it; test/foundation/passwords.test.ts holds the setting itself, the default included.
process.env.IDEAREPO_PASSWORD_MEMORY_KIB ??= "19456";
