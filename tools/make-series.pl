#!/usr/bin/perl
# make series: write the two posted series, each with a cover letter, into
# out/series/{vrange,madv-free}/ with git format-patch --cover-letter.
#
#   tools/make-series.pl [--linux DIR] [--results FILE] [--out DIR]
#
# Each series is applied to the tag `pristine` of DIR (default
# out/src/linux) without touching any working tree: git apply --cached on
# a temporary index, one commit per patch with the patch's own author,
# date and message (git mailinfo), so that format-patch sees the series
# as it is in patches/SERIES/.  The cover letter's subject and blurb come
# from here; its table of headline figures is read from FILE (default
# out/results/matrix.json), each figure with the variant, mode and date it
# came from, or "not measured" where the run lacks it.
use strict;
use warnings;
use FindBin;
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use Getopt::Long;
use JSON::PP;

my $top = "$FindBin::Bin/..";
my ($linux, $results, $out) = ("$top/out/src/linux", "$top/out/results/matrix.json", "$top/out/series");
GetOptions('linux=s' => \$linux, 'results=s' => \$results, 'out=s' => \$out) or die "usage\n";

my %SERIES = (
	vrange => {
		prefix => 'RFC PATCH v12',
		subject => 'Volatile ranges: the vrange() system call',
		design => 'vrange',
		why => <<'EOT',
Applications that keep caches of data they can regenerate want to lend
that memory to the kernel: keep it while there is no pressure, drop it
instead of swapping it out when there is, and be told afterwards whether
it was dropped.  This is John Stultz's volatile ranges series (v11, March
2014, against 3.14) ported to 6.1's mm: folios, the maple tree, pte
markers, shrink_folio_list() and MGLRU.  madvise(MADV_FREE) (4.5) drops
pages silently and per page; MAP_DROPPABLE (6.11) makes a whole mapping
droppable, its pages dropped as silently.  vrange() is the interface
that tells the application what it lost: VRANGE_NONVOLATILE reports
whether any page of the range was purged, and touching a purged page
while the range is still volatile raises SIGBUS.  Why a system call and
not an madvise() pair: madvise() and process_madvise() have no
out-parameter for that report.
EOT
		changes => <<'EOT',
Changes since v11:
 - a hole stops the call (ENOMEM if nothing was processed); shared,
   file-backed, hugetlb, PFN/IO, uffd-wp and (for marking) locked ranges
   are refused with EINVAL; vm_flags change under mmap_write_lock
 - the purged state is a pte marker, not a swap type
 - a page is purged only if every mapping of it is volatile; a huge
   page that the edge of a range cuts is split by the purge pass
 - reclaim purges volatile pages before it scans the LRU lists, with and
   without swap, classic LRU and MGLRU, per memory cgroup
 - unmarking cancels pending MADV_FREE and walks the page tables only
   when a purge or MADV_FREE may have left something (O(1) otherwise)
 - system call number 472 (v11: 316 on x86_64), on x86_64, i386 and in
   the generic table
 - a selftest, tools/testing/selftests/vm/vrange.c

Open, and known to need work before this could be more than an RFC:
VM_VOLATILE uses bit 11 of vm_flags, which mainline has since given
away (a 64-bit-only high bit is the way out); the unmark's walk bit is
a field in every vm_area_struct, also without CONFIG_VRANGE; the pass
that purges volatile pages before the LRU scan ignores the zones a
reclaim may use, memory.min/low, and NR_ISOLATED throttling, and keeps
every mm that ever marked memory in its registry; unmarking a chunk of
a large VMA walks the page tables of the whole chunk once anything in
the VMA was swapped, lazily freed or purged.
EOT
	},
	'madv-free' => {
		prefix => 'PATCH',
		subject => 'mm: MADV_FREE follow-ups: a lazily free gauge, KSM, reclaim order',
		design => 'madv_free',
		why => <<'EOT',
Three follow-ups to MADV_FREE that bring back what Minchan Kim's 2014 RFC
had and the version merged in 4.5 lost: a gauge of the lazily free pages
(nr_lazyfree, LazyFree, memory.stat lazyfree), kept where the LRU sizes
are kept so that it cannot drift, and KSM leaving lazily free pages
alone; plus one reclaim-order change under the classic LRU, which takes
lazily free pages before it swaps out anon memory still in use.  The
last patch adds a selftest of the gauge and of KSM.
EOT
		changes => <<'EOT',
Changes since the 2014 RFC (against 3.14-rc6): the gauge is a node and
memcg stat kept with the LRU sizes instead of a zone counter kept by
hand; the rest of the RFC (MADV_FREE = 8, !PG_swapbacked, the file LRU)
is mainline's since 4.5 and 4.12 and stays as it is.

Known limit of patch 3: the file lists go first only down to priority 0,
where both kinds are scanned again.  In a small memory cgroup with
transparent huge pages "always", memory.reclaim of the lazily free size
reached priority 0 before it had taken them all and swapped out 2051 of
2048 pages in use (all 2048 lazily free pages taken).  Holding the rule
at priority 0 would risk an OOM with swap free when the lazily free pages
cannot be taken (pinned); not attempted yet.
EOT
	},
);

sub git { my @a = @_; my $o = `git -C '$linux' @a`; die "git @a failed\n" if $?; chomp $o; $o }

sub figures {
	my ($design) = @_;
	my $m = eval { decode_json(do { local (@ARGV, $/) = $results; <> }) };
	my @rows = (
		['pages purged or discarded by memory.reclaim, of pages marked', 'memcg_reclaim',
			sub { defined $_[0]{pages_discarded} && $_[0]{pages_marked} ? "$_[0]{pages_discarded} of $_[0]{pages_marked}" : undef }],
		['time to take the range back after reclaim (unmark / reuse)', 'memcg_reclaim',
			sub { defined $_[0]{ns_unmark} ? sprintf('%.0f us', $_[0]{ns_unmark} / 1000) : undef }],
		['cost of marking, per call', 'no_pressure',
			sub { defined $_[0]{ns_mark_per_call} ? sprintf('%.1f us', $_[0]{ns_mark_per_call} / 1000) : undef }],
		['data lost from memory not marked', 'global_pressure',
			sub { defined $_[0]{lost_nonvolatile_bytes} ? "$_[0]{lost_nonvolatile_bytes} bytes" : undef }],
	);
	my $t = "| figure | value | variant | mode | date |\n|---|---|---|---|---|\n";
	for my $r (@rows) {
		my ($name, $scen, $fmt) = @$r;
		my ($val, $v, $mode, $date);
		VARIANT: for my $var (qw(both vrange madv-free)) {
			my $vr = $m && $m->{variants}{$var} or next;
			for my $md (qw(swap-classic swap-mglru noswap-classic noswap-mglru)) {
				for my $d (@{$vr->{modes}{$md}{data} // []}) {
					next unless ($d->{prog} // '') eq 'scenario_test' &&
						($d->{design} // '') eq $design && ($d->{scenario} // '') eq $scen;
					my $f = $fmt->($d) // next;
					($val, $v, $mode, $date) = ($f, $var, $md, $vr->{run_at} // '?');
					last VARIANT;
				}
			}
		}
		$t .= defined $val ? "| $name | $val | $v | $mode | $date |\n" : "| $name | not measured | | | |\n";
	}
	return $t;
}

for my $s (sort keys %SERIES) {
	my $c = $SERIES{$s};
	my $tmp = tempdir(CLEANUP => 1);
	local $ENV{GIT_INDEX_FILE} = "$tmp/index";
	git('read-tree', 'pristine');
	my $head = git('rev-parse', 'pristine');
	open my $sf, '<', "$top/patches/$s/series" or die "$s: no series file\n";
	my @patches = grep { /\S/ && !/^#/ } map { chomp; $_ } <$sf>;
	for my $p (@patches) {
		my $file = "$top/patches/$s/$p";
		my $info = `git -C '$linux' mailinfo '$tmp/msg' '$tmp/patch' <'$file'`;
		die "$p: mailinfo failed\n" if $?;
		my %h = $info =~ /^(\w+): (.*)$/mg;
		git('apply', '--cached', "'$tmp/patch'");
		open my $mf, '>', "$tmp/full" or die;
		print $mf "$h{Subject}\n\n", do { local (@ARGV, $/) = "$tmp/msg"; <> };
		close $mf;
		local $ENV{GIT_AUTHOR_NAME} = $h{Author};
		local $ENV{GIT_AUTHOR_EMAIL} = $h{Email};
		local $ENV{GIT_AUTHOR_DATE} = $h{Date};
		local $ENV{GIT_COMMITTER_NAME} = $h{Author};
		local $ENV{GIT_COMMITTER_EMAIL} = $h{Email};
		local $ENV{GIT_COMMITTER_DATE} = $h{Date};
		my $tree = git('write-tree');
		$head = git('commit-tree', $tree, '-p', $head, '-F', "'$tmp/full'");
	}
	my $dir = "$out/$s";
	remove_tree($dir);
	make_path($dir);
	local $ENV{GIT_AUTHOR_NAME} = 'VM A/B project';
	local $ENV{GIT_AUTHOR_EMAIL} = 'vmab@vmab-project.invalid';
	local $ENV{GIT_COMMITTER_NAME} = 'VM A/B project';
	local $ENV{GIT_COMMITTER_EMAIL} = 'vmab@vmab-project.invalid';
	git('format-patch', '-q', '--cover-letter', '--zero-commit', '--no-signature', '--abbrev=9',
		"--subject-prefix='$c->{prefix}'", '-o', "'$dir'", "pristine..$head");
	my ($cover) = glob "$dir/0000-*.patch";
	my $text = do { local (@ARGV, $/) = $cover; <> };
	my $blurb = "$c->{why}\n$c->{changes}\nHeadline figures, from the last run of the project's\n" .
		"test matrix (out/results/matrix.json, its scenario test, 8 MiB marked):\n\n" .
		figures($c->{design}) .
		"\nThe series applies to Linux 6.1 (Debian's 6.1.192) on its own.\n";
	$text =~ s/\*\*\* SUBJECT HERE \*\*\*/$c->{subject}/;
	$text =~ s/\*\*\* BLURB HERE \*\*\*/$blurb/;
	open my $cf, '>', $cover or die;
	print $cf $text;
	close $cf;
	print "$dir: ", scalar(@patches), " patches and a cover letter\n";
}
