/* simdcrypt-libcrypt: des-crypt with libxcrypt's crypt(3) ABI.
 *
 * The declarations below match libxcrypt 4.4's <crypt.h> for every function this
 * library exports (DES methods: traditional, bigcrypt, BSDi extended; other settings go
 * on to the next libcrypt in the link chain, or fail with "*0" and EINVAL standalone),
 * plus the batch entry point simdcrypt_crypt_keys. See the crate's README.md. */
#ifndef SIMDCRYPT_CRYPT_H
#define SIMDCRYPT_CRYPT_H 1

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CRYPT_OUTPUT_SIZE 384
#define CRYPT_MAX_PASSPHRASE_SIZE 512
#define CRYPT_GENSALT_OUTPUT_SIZE 192
#define CRYPT_DATA_RESERVED_SIZE 767
#define CRYPT_DATA_INTERNAL_SIZE 30720

/* libxcrypt's layout: 32768 bytes. */
struct crypt_data {
  char output[CRYPT_OUTPUT_SIZE];
  char setting[CRYPT_OUTPUT_SIZE];
  char input[CRYPT_MAX_PASSPHRASE_SIZE];
  char reserved[CRYPT_DATA_RESERVED_SIZE];
  char initialized;
  char internal[CRYPT_DATA_INTERNAL_SIZE];
};

extern char *crypt (const char *__phrase, const char *__setting);
extern char *crypt_r (const char *__phrase, const char *__setting,
                      struct crypt_data *__restrict __data);
extern char *crypt_rn (const char *__phrase, const char *__setting,
                       void *__data, int __size);
extern char *crypt_ra (const char *__phrase, const char *__setting,
                       void **__data, int *__size);

extern char *crypt_gensalt (const char *__prefix, unsigned long __count,
                            const char *__rbytes, int __nrbytes);
extern char *crypt_gensalt_rn (const char *__prefix, unsigned long __count,
                               const char *__rbytes, int __nrbytes,
                               char *__output, int __output_size);
extern char *crypt_gensalt_ra (const char *__prefix, unsigned long __count,
                               const char *__rbytes, int __nrbytes);

#define CRYPT_SALT_OK              0
#define CRYPT_SALT_INVALID         1
#define CRYPT_SALT_METHOD_DISABLED 2
#define CRYPT_SALT_METHOD_LEGACY   3
#define CRYPT_SALT_TOO_CHEAP       4
extern int crypt_checksalt (const char *__setting);
extern const char *crypt_preferred_method (void);

/* POSIX (64 bit-bytes) and libxcrypt's reentrant forms. */
extern void setkey (const char *__key);
extern void encrypt (char *__glibc_block, int __edflag);
extern void setkey_r (const char *__key, struct crypt_data *__restrict __data);
extern void encrypt_r (char *__glibc_block, int __edflag,
                       struct crypt_data *__restrict __data);

/* FreeSec: 8-byte DES key; DES with the crypt salt (low 24 bits), count times
 * (decrypt for count < 0). des_cipher returns 0, or 1 for count == 0. */
extern int des_setkey (const char *__key);
extern int des_cipher (const char *__in, char *__out, long __salt, int __count);

/* The batch entry point (bitsliced AVX-512/AVX2 DES when the CPU has it): n keys under
 * one DES setting. Slot i, at out + i * stride (stride >= SIMDCRYPT_KEYS_SLOT), receives
 * the NUL-terminated string crypt_r(keys[i], setting, ...) would return. Returns 0 when
 * every slot holds a hash; -1 with errno ERANGE when some key had 512 bytes or more
 * (its slot holds the failure token, the others their hash); -1 with errno EINVAL and
 * the failure token in every slot for a NULL argument or a setting that is not a DES
 * setting (or is a traditional setting longer than 13 characters: bigcrypt, use
 * crypt_r); -1 with ERANGE and nothing written for stride < SIMDCRYPT_KEYS_SLOT.
 * Thread-safe. */
#define SIMDCRYPT_KEYS_SLOT 21
extern int simdcrypt_crypt_keys (const char *__setting, const char *const *__keys,
                                 size_t __n, char *__out, size_t __stride);

#ifdef __cplusplus
}
#endif

#endif /* SIMDCRYPT_CRYPT_H */
