package VMAB::Designs;
# The designs this project compares, in one table that the report and the
# judge read for their titles, columns, config symbols and counters: a new
# design is one row here (and its kernel patches and guest data), not a
# list in every module.  A design's key is the value of the "design" field
# its "# @data" records carry (suite/lib/data_keys.h: DK_DESIGN), the word
# a test's name uses for it and the short name a test that needs it
# declares (VMAB::Needs).
#   designs()            -> the rows, in column order
#   design($key)         -> one row, or undef
#   design_keys()        -> their keys
#   title($key)          -> "A: vrange"
#   measured_designs($m) -> the keys of the designs matrix.json has figures
#                           of (any "# @data" record with that design)
# Each row:
#   key        the "design" value of its data ("vrange")
#   letter, title  its letter and column heading ("A", "A: vrange")
#   kconfig    the Kconfig symbol that builds it in (a test declares it,
#              or its short name, VMAB::Needs, when it needs the design)
#   names      how a skip reason names it without the symbol ("no
#              vrange()"; VMAB::Expectations)
#   counter_discarded   the /proc/vmstat event of pages reclaim took from
#                       it (undef: none counts them)
#   counter_given_back  the event of pages marked (undef: none)
# The same names as the guest's table (suite/lib/designs.h, struct design_def).
#   mark_op, unmark_op  its bench_mark operations (undef: none)
#   no_unmark  what stands for an unmark where it has none
#   marked_as  what its marked memory is called ("volatile")
#   detected_by  how a cache built on it learns an object was lost
#   taken_back_by  what takes marked memory back for use
#   promises   what it gives a user, as documented (its patches' Documentation
#              and man pages, madvise(2), mmap(2)): the report's first table
#              (VMAB::Report::Summary::SEMANTICS), one entry an aspect
#   core       the report's summary, questions and scenario tables give it
#              a column even when this run has no figures of it (C gets
#              one only when matrix.json has its figures)
#   no_scenarios  it is no variant of suite/scenario_test.c (no mark, no
#              unmark): the report reads its figures from its own programs'
#              records (reclaim_test, droppable_test; VMAB::Report::Goals),
#              those of droppable_test shaped as scenario_test's where a
#              scenario applies to it
#   does_not_apply  { key => why }: the report's answer, in a short phrase,
#              to a question of 2014 (VMAB::Report::Scenarios @QUESTIONS
#              key) or a headline figure (VMAB::Report::Summary::figures
#              key) that cannot be asked of it
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(designs design design_keys title measured_designs);

our @DESIGNS = (
	{ key => 'vrange', letter => 'A', title => 'A: vrange', kconfig => 'CONFIG_VRANGE',
	  names => qr/(?<![a-z])(?:vrange|sigbus)/i, core => 1,
	  counter_discarded => 'pgvrange_purged', counter_given_back => undef,
	  mark_op => 'volatile', unmark_op => 'nonvolatile_after_purge', marked_as => 'volatile',
	  detected_by => 'purged flag per object', taken_back_by => 'vrange(NONVOLATILE)',
	  promises => {
		loss => '`VRANGE_NONVOLATILE` (or `VRANGE_QUERY`) sets `*purged`; SIGBUS on touching a lost page while marked',
		access => 'SIGBUS (`BUS_ADRERR`, `si_addr` in the page); read(2)/write(2) on it fail with `EFAULT`; zero pages once unmarked',
		cost => 'mark: one call sets a VMA flag, no page-table walk (VMAs split and merge under the mmap write lock); unmark: a second call, which reports loss, and walks the page tables only of a VMA where a purge or `MADV_FREE` may have left something, once; pages on swap are kept',
		order => 'a page whose every mapping is volatile is purged instead of swapped, however recently it was used',
		swapless => 'purges with no swap device and with `CONFIG_SWAP=n`: a purge pass takes volatile pages before the LRU lists are scanned, so reclaim without swap scans no anon memory for them (v11 needed swap)',
		thp => 'a huge page in a volatile range is split, then purged page by page',
		memcg => 'purged pages leave the cgroup\'s charge; counted once each in /proc/vmstat and memory.stat `pgvrange_purged`',
		write => 'does not unmark: the page may still be purged',
	  } },
	{ key => 'madv_free', letter => 'B', title => 'B: MADV_FREE', kconfig => 'CONFIG_MADV_FREE',
	  names => qr/(?<![a-z])(?:madv_?free|lazyfree)/i, core => 1,
	  counter_discarded => 'pglazyfreed', counter_given_back => 'pglazyfree',
	  mark_op => 'madv_free', unmark_op => undef,
	  no_unmark => 'no unmark: a write to a page cancels its discard', marked_as => 'lazily freed',
	  detected_by => 'a per-page canary, since MADV_FREE tells nothing', taken_back_by => 'a write to each page',
	  promises => {
		loss => 'not at all: a lost page reads as zeros, so the user keeps a canary per page',
		access => 'a zero-filled page, for user space and the kernel alike',
		cost => 'mark: `madvise()` walks the page tables and moves each page to the lazy-free LRU; unmark: none, a write to a page cancels its discard',
		order => 'lazily free pages sit on the inactive file LRU; while an LRU holds 32 or more, the classic LRU scans only the file lists, so they go before anon memory is swapped out (MGLRU picks the file type while they are the oldest)',
		swapless => 'discards without swap: the file LRU it sits on is always scanned',
		thp => 'a whole huge page is marked in one step (`madvise_free_huge_pmd`); marking part of one splits it',
		memcg => '`pglazyfree` and `pglazyfreed` in /proc/vmstat and memory.stat, and the gauge `lazyfree` (memory.stat), `LazyFree:` (meminfo), `nr_lazyfree` (vmstat)',
		write => 'cancels the discard of that page',
	  } },
	# Linux 6.11's MAP_DROPPABLE: no event counts its pages (a written
	# droppable page is dropped by try_to_unmap_one() and freed uncounted;
	# suite/lib/designs.h says how).
	{ key => 'droppable', letter => 'C', title => 'C: MAP_DROPPABLE', kconfig => 'CONFIG_MAP_DROPPABLE',
	  names => qr/(?<![a-z])droppable/i, core => 0, no_scenarios => 1,
	  does_not_apply => { map({ $_ => 'does not apply: C has no mark call, its memory is droppable from the mmap() on' } qw(cost mark)),
		churn => 'does not apply: an allocator cannot make heap memory it already has droppable, only a new mmap() can' },
	  counter_discarded => undef, counter_given_back => undef,
	  mark_op => undef, unmark_op => undef,
	  no_unmark => 'no unmark: the whole mapping stays droppable', marked_as => 'droppable',
	  detected_by => 'a per-page canary, since nothing tells of a drop', taken_back_by => 'nothing: it stays droppable',
	  promises => {
		loss => 'not at all: a dropped page reads as zeros',
		access => 'a zero-filled page, for user space and the kernel alike',
		cost => 'mark: once, at `mmap()` time, for the whole mapping; unmark: none',
		order => 'its pages are lazily free from the start and go the `MADV_FREE` way, never to swap',
		swapless => 'dropped without swap: it is never written to swap at all',
		thp => 'its pages take the lazy-free discard path, huge ones included',
		memcg => 'no /proc/vmstat or memory.stat event counts a dropped page',
		write => 'does not keep the page: a dirty droppable page is dropped all the same',
	  } },
);

my %BY_KEY = map { $_->{key} => $_ } @DESIGNS;

sub designs { return @DESIGNS }
sub design { return $BY_KEY{$_[0]} }
sub design_keys { return map { $_->{key} } @DESIGNS }
sub title { my ($key) = @_; return $BY_KEY{$key} ? $BY_KEY{$key}{title} : $key }

sub measured_designs {
	my ($m) = @_;
	my %have;
	for my $x (values %{$m->{variants} // {}}) {
		for my $mode (values %{$x->{modes} // {}}) {
			$have{$_->{design}} = 1
				for grep { ref $_ eq 'HASH' && defined $_->{design} } @{$mode->{data} // []};
		}
	}
	return grep { $have{$_} } design_keys();
}

1;
