package VMAB::Report::After;
# "What came after" (so that the 2014 comparison is read in today's
# light): the designs that followed the two of 2014,
# in Linux and elsewhere, compared on the same points as the report's
# semantics table.  Cited, not implemented here: each row names its source;
# a row with "measured_as" (a key of VMAB::Designs) leaves the cited table
# for a line that points at its column once matrix.json has its figures.
#   designs() -> ({ name, since, marks, loss, order, source => [[text, url], ...] }, ...)
#   section($matrix) -> markdown (headings from level 3 down)
use strict;
use warnings;
use VMAB::Designs qw(design measured_designs);
use VMAB::Report::Html qw(md_table esc_cell);

sub kernel_commit {
	my ($id, $title) = @_;
	return ["commit " . substr($id, 0, 12) . " (\"$title\")",
		"https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=$id"];
}

our @DESIGNS = (
	{ name => 'Linux `MADV_FREE`, as merged',
	  since => 'Linux 4.5 (2016); file LRU from 4.12',
	  marks => 'private anonymous pages, `madvise(MADV_FREE)` with the value 8 on every architecture (the RFC had 5)',
	  loss => 'none: a discarded page reads as zeros; a write before reclaim keeps the page',
	  order => 'in 4.5 the anon LRU, and without swap it acted as `MADV_DONTNEED` (lazy-free LRU and swapless support were left for later); since 4.12 the inactive file LRU, scanned with or without swap. This is design B\'s base',
	  source => [kernel_commit('854e9ed09dedf0c19ac8640e91bcc74bc3f9e5c9', 'mm: support madvise(MADV_FREE)'),
		     kernel_commit('802a3a92ad7ac0b9be9df229dee530a1f0a8039b', 'mm: reclaim MADV_FREE pages'),
		     ['madvise(2)', 'https://man7.org/linux/man-pages/man2/madvise.2.html']] },
	{ name => '`MADV_COLD`, `MADV_PAGEOUT`',
	  since => 'Linux 5.4 (2019)',
	  marks => 'any LRU pages, as hints that keep the data (made for Android\'s management of cached apps)',
	  loss => 'no loss: `MADV_COLD` deactivates the pages so that reclaim takes them sooner, `MADV_PAGEOUT` reclaims them at once (anon pages go to swap)',
	  order => 'reclaim order only; nothing is discarded, so nothing needs signalling. The scenarios here use `MADV_PAGEOUT` as a pressure',
	  source => [kernel_commit('9c276cc65a58faf98be8e56962745ec99ab87636', 'mm: introduce MADV_COLD'),
		     kernel_commit('1a4e58cce84ee88129d5d49c064bd2852b481357', 'mm: introduce MADV_PAGEOUT')] },
	{ name => '`MAP_DROPPABLE`', measured_as => 'droppable',
	  since => 'Linux 6.11 (2024), 64-bit',
	  marks => 'a whole mapping, chosen at `mmap()` time (made for the vDSO getrandom() state)',
	  loss => 'none: dropped pages read back as zeros, and the user must tolerate that at any instant',
	  order => 'never written to swap; dropped under memory pressure',
	  source => [kernel_commit('9651fcedf7b92d3f7f1ab179e8ab55b85ee10fc1',
		'mm: add MAP_DROPPABLE for designating always lazily freeable mappings')] },
	{ name => 'Darwin purgeable memory',
	  since => 'xnu (header of 2003); groups and ordering added later',
	  marks => 'whole VM objects allocated purgeable, switched by `vm_purgable_control()` with `VM_PURGABLE_SET_STATE` between `VM_PURGABLE_NONVOLATILE` and `VM_PURGABLE_VOLATILE`',
	  loss => 'setting a state returns the old one: `VM_PURGABLE_EMPTY` means the object was purged; `VM_PURGABLE_GET_STATE` asks without changing it',
	  order => 'volatile groups 0-7 (`VM_VOLATILE_GROUP_*`, lower ones purged first), FIFO or LIFO within a group (`VM_PURGABLE_BEHAVIOR_*`), and `VM_PURGABLE_ORDERING_OBSOLETE` objects emptied before any other objects or pages',
	  source => [['osfmk/mach/vm_purgable.h', 'https://github.com/apple-oss-distributions/xnu/blob/main/osfmk/mach/vm_purgable.h'],
		     ['IOMemoryDescriptor::setPurgeable', 'https://developer.apple.com/documentation/kernel/iomemorydescriptor/1442065-setpurgeable']] },
	{ name => 'Windows `OfferVirtualMemory` / `ReclaimVirtualMemory`',
	  since => 'Windows 8.1 Update, Server 2012 R2 Update',
	  marks => 'page ranges, each offer with a priority `VmOfferPriorityVeryLow`, `Low`, `BelowNormal` or `Normal`',
	  loss => 'offered pages are inaccessible until reclaimed; `ReclaimVirtualMemory` returns `ERROR_BUSY` if they were discarded (contents undefined), `ERROR_SUCCESS` if intact',
	  order => 'lower priorities are usually discarded first; offered pages leave the working set and are never written to the paging file',
	  source => [map { [$_, 'https://learn.microsoft.com/en-us/windows/win32/api/memoryapi/nf-memoryapi-' . lc] }
		     qw(OfferVirtualMemory ReclaimVirtualMemory)] },
	{ name => 'Android ashmem pin/unpin',
	  since => 'Android (2008); removed from mainline staging in Linux 5.18',
	  marks => 'ranges of a shared-memory (shmem) region: `ASHMEM_UNPIN` makes them purgeable, `ASHMEM_PIN` takes them back',
	  loss => '`ASHMEM_PIN` returns `ASHMEM_WAS_PURGED` or `ASHMEM_NOT_PURGED`; `ASHMEM_GET_PIN_STATUS` asks',
	  order => 'a shrinker purges whole unpinned ranges, least recently unpinned first. memfd, its mainline replacement, has no pin/unpin',
	  source => [kernel_commit('721412ed3d819e767cac2b06646bf03aa158aaec', 'staging: remove ashmem')] },
);

sub designs { return @DESIGNS }

sub section {
	my ($m) = @_;
	my %measured = map { $_ => 1 } measured_designs($m // {});
	my @here = grep { $_->{measured_as} && $measured{$_->{measured_as}} } @DESIGNS;
	my $md = join('', map { "$_->{name} ($_->{since}) is measured here, as design " . design($_->{measured_as})->{letter} .
		': its column in the summary and the scenario tables (' .
		join(', ', map { "[$_->[0]]($_->[1])" } @{$_->{source}}) . ").\n\n" } @here);
	$md .= (@here ? 'The rest are cited' : 'Cited') . ", not implemented here. Design A's `VRANGE_QUERY`, which v11 lacked, has its " .
		"counterparts in Darwin's `VM_PURGABLE_GET_STATE` and ashmem's `ASHMEM_GET_PIN_STATUS`.\n\n";
	my @sources;	# numbered in the order the rows cite them
	$md .= md_table(['design', 'since', 'what is marked', 'how loss is signalled', 'what reclaim takes first', 'sources'],
		map { my $d = $_; [(map { esc_cell($d->{$_}) } qw(name since marks loss order)),
				   join(', ', map { push @sources, $_; '[' . @sources . ']' } @{$d->{source}})] }
		grep { !($_->{measured_as} && $measured{$_->{measured_as}}) } @DESIGNS);
	$md .= "\nSources:\n\n";
	$md .= join('', map { ($_ + 1) . ". [$sources[$_][0]]($sources[$_][1])\n" } 0 .. $#sources);
	return "$md\n";
}

1;
