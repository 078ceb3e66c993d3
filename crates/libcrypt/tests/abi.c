/* Linked directly against libsimdcrypt_libcrypt.so (not preloaded): checks the header's
 * declarations and struct crypt_data's layout against what the library does. Built and
 * run by tests/c_abi.rs; exits non-zero on the first difference. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdcrypt_crypt.h"

static int failures;

#define CHECK(cond)                                                    \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf (stderr, "abi.c:%d: check failed: %s\n", __LINE__, #cond); \
      failures++;                                                      \
    }                                                                  \
  } while (0)

int
main (void)
{
  /* libxcrypt 4.4's layout. */
  CHECK (sizeof (struct crypt_data) == 32768);
  CHECK (offsetof (struct crypt_data, setting) == 384);
  CHECK (offsetof (struct crypt_data, input) == 768);
  CHECK (offsetof (struct crypt_data, reserved) == 1280);
  CHECK (offsetof (struct crypt_data, initialized) == 2047);
  CHECK (offsetof (struct crypt_data, internal) == 2048);

  struct crypt_data *d = calloc (1, sizeof *d);
  char *r = crypt_r ("test", "ab", d);
  CHECK (r == d->output);
  CHECK (strcmp (r, "abgOeLfPimXQo") == 0);
  r = crypt_r ("test", "_J9..abcd", d);
  CHECK (strcmp (r, "_J9..abcdx/cgK8gMibw") == 0);
  errno = 0;
  r = crypt_r ("test", "a!", d);
  CHECK (strcmp (r, "*0") == 0 && errno == EINVAL);
  r = crypt_r ("test", "*0", d);
  CHECK (strcmp (r, "*1") == 0);
  errno = 0;
  CHECK (crypt_rn ("test", "a!", d, sizeof *d) == NULL && errno == EINVAL);
  CHECK (crypt_rn ("test", "ab", d, sizeof *d - 1) == NULL && errno == ERANGE);
  CHECK (strcmp (crypt ("test", "abgOeLfPimXQo"), "abgOeLfPimXQo") == 0);

  /* Standalone (this program does not load libcrypt.so.1): other methods fail as in a
   * libxcrypt built without them. */
  errno = 0;
  r = crypt_r ("test", "$6$saltsalt", d);
  CHECK (strcmp (r, "*0") == 0 && errno == EINVAL);
  errno = 0;
  CHECK (crypt_rn ("test", "$1$abc", d, sizeof *d) == NULL && errno == EINVAL);
  CHECK (strcmp (crypt ("test", "*0"), "*1") == 0);
  CHECK (crypt_checksalt ("$6$abc") == CRYPT_SALT_INVALID);
  CHECK (strcmp (crypt_preferred_method (), "_") == 0);
  errno = 0;
  CHECK (crypt_gensalt ("$6$", 0, NULL, 0) == NULL && errno == EINVAL);
  r = crypt_gensalt (NULL, 0, "\x01\x02\x03", 3);
  CHECK (r != NULL && strcmp (r, "_J9../6k.") == 0);

  void *buf = NULL;
  int size = 0;
  r = crypt_ra ("test", "ab", &buf, &size);
  CHECK (r != NULL && strcmp (r, "abgOeLfPimXQo") == 0 && size == 32768);
  free (buf);

  CHECK (crypt_checksalt ("ab") == CRYPT_SALT_METHOD_LEGACY);
  CHECK (crypt_checksalt ("a!") == CRYPT_SALT_INVALID);
  CHECK (strcmp (crypt_gensalt ("_", 725, "\x01\x02\x03", 3), "_J9../6k.") == 0);
  char gs[CRYPT_GENSALT_OUTPUT_SIZE];
  CHECK (strcmp (crypt_gensalt_rn ("", 0, "\x01\x02", 2, gs, sizeof gs), "/0") == 0);
  char *ra = crypt_gensalt_ra ("_", 0, NULL, 0);
  CHECK (ra != NULL && strlen (ra) == 9 && crypt_checksalt (ra) == CRYPT_SALT_METHOD_LEGACY);
  free (ra);

  /* setkey_r/encrypt_r and setkey/encrypt: decryption undoes encryption. */
  char key[64], block[64], orig[64];
  for (int i = 0; i < 64; i++)
    {
      key[i] = (i * 7 + 3) % 3 == 0;
      block[i] = orig[i] = (i * 5) % 7 < 3;
    }
  setkey_r (key, d);
  encrypt_r (block, 0, d);
  CHECK (memcmp (block, orig, 64) != 0);
  char block2[64];
  memcpy (block2, orig, 64);
  setkey (key);
  encrypt (block2, 0);
  CHECK (memcmp (block, block2, 64) == 0);
  encrypt_r (block, 1, d);
  CHECK (memcmp (block, orig, 64) == 0);

  /* des_cipher is crypt's core: "test" under salt "ab", 25 rounds. */
  char k8[8] = { 't' << 1, 'e' << 1, 's' << 1, 't' << 1, 0, 0, 0, 0 };
  char zero[8] = { 0 }, out[8], back[8];
  CHECK (des_setkey (k8) == 0);
  CHECK (des_cipher (zero, out, (39 << 6) | 38, 25) == 0);
  CHECK (des_cipher (out, back, (39 << 6) | 38, -25) == 0);
  CHECK (memcmp (back, zero, 8) == 0);
  CHECK (des_cipher (out, back, 0, 0) == 1);

  /* The batch entry point agrees with crypt_r. */
  enum { N = 300 };
  static char keybuf[N][16];
  const char *keys[N];
  for (int i = 0; i < N; i++)
    {
      snprintf (keybuf[i], sizeof keybuf[i], "key%d", i * 7919);
      keys[i] = keybuf[i];
    }
  char *slots = malloc ((size_t) N * SIMDCRYPT_KEYS_SLOT);
  CHECK (simdcrypt_crypt_keys ("_J9..CCCC", keys, N, slots, SIMDCRYPT_KEYS_SLOT) == 0);
  for (int i = 0; i < N; i++)
    CHECK (strcmp (slots + (size_t) i * SIMDCRYPT_KEYS_SLOT,
                   crypt_r (keys[i], "_J9..CCCC", d)) == 0);
  errno = 0;
  CHECK (simdcrypt_crypt_keys ("$6$x", keys, N, slots, SIMDCRYPT_KEYS_SLOT) == -1
         && errno == EINVAL && strcmp (slots, "*0") == 0);
  free (slots);
  free (d);

  if (failures)
    return 1;
  puts ("abi.c: all checks passed");
  return 0;
}
