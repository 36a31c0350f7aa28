/* valgrind client requests: secrets become "undefined" so memcheck reports any branch or
   address computed from them; public results are marked defined again. Outside valgrind
   these are no-ops. */
#include <valgrind/memcheck.h>
void ct_secret(void *p, unsigned long n) { VALGRIND_MAKE_MEM_UNDEFINED(p, n); }
void ct_public(void *p, unsigned long n) { VALGRIND_MAKE_MEM_DEFINED(p, n); }
void gcmkit_ct_declassify(void *p, unsigned long n) { VALGRIND_MAKE_MEM_DEFINED(p, n); }
