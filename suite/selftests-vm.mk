# 6.1's own mm selftests (tools/testing/selftests/vm/), built static for the
# guest: what the kernel's own tests say of the patched mm.  Included by
# suite/Makefile; on its own:
#   make -C suite -f selftests-vm.mk KSRC=<unpacked 6.1 tree> OUT=<folder>
# Binaries go to $(OUT)/vm/, the runner to $(OUT)/vmselftest; the programs
# the guest runs, and how, are in suite/selftests.list; the ones it cannot
# run, and why, in suite/selftests-excluded.txt.
#
# A program whose library is missing on the host (libnuma-dev for
# ksm_tests, libcap-dev for mlock-random-test) is left out with a warning
# rather than failing the build; the guest then reports it as missing.
KSRC ?= ../out/src/linux
OUT ?= ../out/guest/suite
CC ?= gcc
VMST := $(KSRC)/tools/testing/selftests/vm
# The selftests' own flags (vm/Makefile), plus -static.  The host's uapi
# headers are 6.1's or newer, which is what the tree's Makefile would use
# after headers_install; the tree's own come after them, for the headers
# only the series add (<linux/vrange.h>).
VMST_CFLAGS := -O2 -g0 -static -Wall -I$(KSRC) -I$(KSRC)/tools/testing/selftests \
	-idirafter $(KSRC)/include/uapi
VMST_LDLIBS := -lrt -lpthread -lm

VMST_PROGS := compaction_test hugepage-mmap hugepage-mremap hugepage-vmemmap \
	hugetlb-madvise khugepaged madv_populate map_fixed_noreplace \
	map_hugetlb map_populate mlock2-tests mrelease_test mremap_dontunmap \
	mremap_test transhuge-stress va_128TBswitch virtual_address_range
# Built with vm_util.c, as in vm/Makefile.
VMST_UTIL := khugepaged madv_populate vrange

# The series' own selftests, where the tree has them.
VMST_PROGS += $(notdir $(basename $(wildcard $(VMST)/vrange.c $(VMST)/lazyfree.c)))

have_hdr = $(shell printf '#include <$(1)>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo y)
ifeq ($(call have_hdr,numa.h),y)
VMST_PROGS += ksm_tests
else
$(warning selftests-vm: no numa.h (libnuma-dev): ksm_tests left out)
endif
ifeq ($(call have_hdr,sys/capability.h),y)
VMST_PROGS += mlock-random-test
else
$(warning selftests-vm: no sys/capability.h (libcap-dev): mlock-random-test left out)
endif

# mrelease_test uses __NR_pidfd_open and __NR_process_mrelease without
# including <sys/syscall.h>, so both are its fallback -1 (ENOSYS, a skip).

VMST_BINS := $(patsubst %,$(OUT)/vm/%,$(VMST_PROGS))

selftests-vm: $(VMST_BINS) $(OUT)/vmselftest

$(OUT)/vm/%: $(VMST)/%.c selftests-vm.mk | $(OUT)/vm
	$(CC) $(VMST_CFLAGS) -o $@ $< \
		$(if $(filter $*,$(VMST_UTIL)),$(VMST)/vm_util.c) $(VMST_LDLIBS) \
		$(if $(filter $*,ksm_tests),-lnuma) \
		$(if $(filter $*,mlock-random-test),-lcap) \
		$(if $(filter $*,mrelease_test),-include sys/syscall.h)

# khugepaged gives khugepaged 3 s (wait_for_scan: 6 ticks of 0.5 s) to
# collapse a range.  Under TCG here one case already takes 1.5 s of them,
# so a slower or busier machine times out.  It is built from a copy that
# gives 30 s; a case that expects no collapse still ends after khugepaged's
# next two full scans, as before.  The copy is kept out of the initramfs.
VMST_SRC := $(OUT).src
$(VMST_SRC)/khugepaged.c: $(VMST)/khugepaged.c selftests-vm.mk | $(VMST_SRC)
	sed 's|int timeout = 6; /\* 3 seconds \*/|int timeout = 60; /* 30 s under TCG: suite/selftests-vm.mk */|' $< > $@.tmp
	@grep -q 'int timeout = 60;' $@.tmp || { \
		echo "$<: no 'int timeout = 6; /* 3 seconds */' to scale" >&2; exit 1; }
	mv $@.tmp $@

$(OUT)/vm/khugepaged: $(VMST_SRC)/khugepaged.c | $(OUT)/vm
	$(CC) $(VMST_CFLAGS) -I$(VMST) -o $@ $< $(VMST)/vm_util.c $(VMST_LDLIBS)

# ksm_tests -U writes to the two pages KSM merged, reads full_scans, waits
# for one more full scan and expects pages_shared = pages_sharing = 0.  But
# the scan that full_scans counts can be the one already under way when the
# pages were written, which had checked both while they were still merged
# (mm/ksm.c cmp_and_merge_page(): a page still in its stable node is left
# as it is); only ksmd's next look at a page drops it from the counts.  The
# test then sees 1 and 1 (seen on the debug variant, about 1 run in 3).  The
# copy built waits for 2 full scans, as LTP's ksm wait_ksmd_full_scan() does: the
# second starts after the writes and looks at both pages.  A page still
# merged after that still fails the test.  Under TCG one scan of 2 pages
# takes milliseconds.
$(VMST_SRC)/ksm_tests.c: $(VMST)/ksm_tests.c selftests-vm.mk | $(VMST_SRC)
	sed 's|if (ksm_do_scan(1, start_time, timeout))|if (ksm_do_scan(2, start_time, timeout)) /* 2: suite/selftests-vm.mk */|' $< > $@.tmp
	@[ "$$(grep -c '/\* 2: suite/selftests-vm.mk \*/' $@.tmp)" = 1 ] || { \
		echo "$<: not one 'if (ksm_do_scan(1, start_time, timeout))' to change" >&2; exit 1; }
	mv $@.tmp $@

$(OUT)/vm/ksm_tests: $(VMST_SRC)/ksm_tests.c | $(OUT)/vm
	$(CC) $(VMST_CFLAGS) -I$(VMST) -o $@ $< $(VMST_LDLIBS) -lnuma

$(VMST_SRC):
	mkdir -p $@

$(OUT)/vmselftest: vmselftest.sh | $(OUT)
	install -m 0755 $< $@

$(OUT)/vm:
	mkdir -p $@

.PHONY: selftests-vm
