# The collection files build against a <linux/perf_event.h> without the names newer than Linux
# 5.10 (Debian 11's headers), and the fallbacks of src/kernel/perf_compat.h equal the kernel's.
. "$top_srcdir/tests/lib.sh"
cc=${CC:-cc}

real=$(echo '#include <linux/perf_event.h>' | $cc -E -x c - 2>/dev/null |
	sed -n 's/^# [0-9]* "\(.*\/linux\/perf_event\.h\)".*/\1/p' | head -1)
if [ -z "$real" ] || [ ! -r "$real" ]; then
	skip_all "no <linux/perf_event.h> found through $cc"
fi
diag "reducing $real"

# A header as 5.10's: the names added later removed; inherit_thread's bit kept as padding so the
# layout stays the kernel's.
NEWER='PERF_SAMPLE_DATA_PAGE_SIZE|PERF_SAMPLE_CODE_PAGE_SIZE|PERF_SAMPLE_WEIGHT_STRUCT|PERF_SAMPLE_WEIGHT_TYPE|PERF_FORMAT_LOST|PERF_MEM_LVLNUM_CXL|PERF_MEM_LVLNUM_IO'
mkdir -p "$TMP/old/linux"
grep -Ev "$NEWER" "$real" | sed 's/^\([[:space:]]*\)inherit_thread[[:space:]]*:/\1__compat_pad_35 :/' \
	>"$TMP/old/linux/perf_event.h"
cat >"$TMP/old/config.h" <<EOC
#include "$top_builddir/config.h"
#undef HAVE_DECL_PERF_SAMPLE_DATA_PAGE_SIZE
#define HAVE_DECL_PERF_SAMPLE_DATA_PAGE_SIZE 0
#undef HAVE_DECL_PERF_SAMPLE_WEIGHT_STRUCT
#define HAVE_DECL_PERF_SAMPLE_WEIGHT_STRUCT 0
#undef HAVE_DECL_PERF_FORMAT_LOST
#define HAVE_DECL_PERF_FORMAT_LOST 0
#undef HAVE_DECL_PERF_MEM_LVLNUM_CXL
#define HAVE_DECL_PERF_MEM_LVLNUM_CXL 0
#undef HAVE_DECL_PERF_MEM_LVLNUM_IO
#define HAVE_DECL_PERF_MEM_LVLNUM_IO 0
#undef HAVE_STRUCT_PERF_EVENT_ATTR_INHERIT_THREAD
EOC
mkdir -p "$TMP/new"
echo "#include \"$top_builddir/config.h\"" >"$TMP/new/config.h"

check "the reduced header lacks every newer name" sh -c '! grep -Eq "$1|inherit_thread" "$2"' _ \
	"$NEWER" "$TMP/old/linux/perf_event.h"
check "configure found the newer names in this machine's header" \
	grep -q '^#define HAVE_STRUCT_PERF_EVENT_ATTR_INHERIT_THREAD 1' "$top_builddir/config.h"

for f in "$top_srcdir"/src/kernel/*.c "$top_srcdir"/src/collect/*.c; do
	# the BPF program is built for the bpf target, against no perf header
	case $f in *.bpf.c) continue ;; esac
	# the BPF loader includes the skeleton the build made in the build tree
	check "src/${f#"$top_srcdir"/src/} compiles against the reduced header" \
		$cc -std=gnu11 -fsyntax-only -Wall -Werror -I"$TMP/old" -I"$top_srcdir/src" \
		-I"$top_builddir/src" "$f"
done

# Print every value the compat header supplies, and the attr bytes inherit_thread sets.
cat >"$TMP/values.c" <<'EOC'
#include "config.h"
#include <stdio.h>
#include "kernel/perf_compat.h"
int main(void)
{
	struct perf_event_attr a;
	const unsigned char *p = (const unsigned char *)&a;

	printf("PERF_SAMPLE_DATA_PAGE_SIZE %#llx\n", (unsigned long long)PERF_SAMPLE_DATA_PAGE_SIZE);
	printf("PERF_SAMPLE_WEIGHT_STRUCT %#llx\n", (unsigned long long)PERF_SAMPLE_WEIGHT_STRUCT);
	printf("PERF_FORMAT_LOST %#llx\n", (unsigned long long)PERF_FORMAT_LOST);
	printf("PERF_MEM_LVLNUM_CXL %#x\n", PERF_MEM_LVLNUM_CXL);
	printf("PERF_MEM_LVLNUM_IO %#x\n", PERF_MEM_LVLNUM_IO);
	for (unsigned v = 0; v < 2; v++) {
		memset(&a, 0xff * (1 - v), sizeof(a));
		perf_compat_set_inherit_thread(&a, v);
		printf("inherit_thread=%u:", v);
		for (size_t i = 0; i < sizeof(a); i++)
			printf(" %02x", p[i]);
		printf("\n");
	}
	return 0;
}
EOC
for h in old new; do
	$cc -std=gnu11 -I"$TMP/$h" -I"$top_srcdir/src" -o "$TMP/values-$h" "$TMP/values.c" &&
		"$TMP/values-$h" >"$TMP/values-$h.txt"
done
sed 's/^/# kernel header: /' "$TMP/values-new.txt" | head -5
check "the fallback values and inherit_thread's bit are the kernel's" \
	cmp "$TMP/values-old.txt" "$TMP/values-new.txt"
done_testing
