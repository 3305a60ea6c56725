package VMAB::Designs;
# The designs this project compares, in one table that the report and the
# judge read for their titles, columns, config symbols and counters: a new
# design is one row here (and its kernel patches and guest data), not a
# list in every module.  A design's key is the value of the "design" field
# its "# @data" records carry (suite/lib/data_keys.h: DK_DESIGN), and the
# word a test's name uses for it.
#   designs()            -> the rows, in column order
#   design($key)         -> one row, or undef
#   design_keys()        -> their keys
#   title($key)          -> "A: vrange"
#   measured_designs($m) -> the keys of the designs matrix.json has figures
#                           of (any "# @data" record with that design)
# Each row:
#   key        the "design" value of its data ("vrange")
#   letter, title  its letter and column heading ("A", "A: vrange")
#   kconfig    the Kconfig symbol that builds it in (the judge: a test that
#              names the design needs it)
#   names      how a test id or skip reason names it (VMAB::Judge)
#   in_both    one of the two designs of 2014 a "both_designs" test needs
#   counter_discarded   the /proc/vmstat event of pages reclaim took from
#                       it (undef: none counts them)
#   counter_given_back  the event of pages marked (undef: none)
# The same names as the guest's table (suite/lib/designs.h, struct design_def).
#   mark_op, unmark_op  its bench_mark operations (undef: none)
#   no_unmark  what stands for an unmark where it has none
#   marked_as  what its marked memory is called ("volatile")
#   core       the report's summary, questions and scenario tables give it
#              a column even when this run has no figures of it (C gets
#              one only when matrix.json has its figures)
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(designs design design_keys title measured_designs);

our @DESIGNS = (
	{ key => 'vrange', letter => 'A', title => 'A: vrange', kconfig => 'CONFIG_VRANGE',
	  names => qr/(?<![a-z])(?:vrange|sigbus)/i, in_both => 1, core => 1,
	  counter_discarded => 'pgvrange_purged', counter_given_back => undef,
	  mark_op => 'volatile', unmark_op => 'nonvolatile_after_purge', marked_as => 'volatile' },
	{ key => 'madv_free', letter => 'B', title => 'B: MADV_FREE', kconfig => 'CONFIG_MADV_FREE',
	  names => qr/(?<![a-z])(?:madv_?free|lazyfree)/i, in_both => 1, core => 1,
	  counter_discarded => 'pglazyfreed', counter_given_back => 'pglazyfree',
	  mark_op => 'madv_free', unmark_op => undef,
	  no_unmark => 'no unmark: a write to a page cancels its discard', marked_as => 'lazily freed' },
	# Linux 6.11's MAP_DROPPABLE: no event counts its pages (a written
	# droppable page is dropped by try_to_unmap_one() and freed uncounted;
	# suite/lib/designs.h says how).
	{ key => 'droppable', letter => 'C', title => 'C: MAP_DROPPABLE', kconfig => 'CONFIG_MAP_DROPPABLE',
	  names => qr/(?<![a-z])droppable/i, in_both => 0, core => 0,
	  counter_discarded => undef, counter_given_back => undef,
	  mark_op => undef, unmark_op => undef,
	  no_unmark => 'no unmark: the whole mapping stays droppable', marked_as => 'droppable' },
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
