package VMAB::Provenance;
# Where each variant's results came from, kept with them in matrix.json as
# KCIDB keeps a build's record beside its tests and tuxmake a build's
# metadata: the project's commit, the patched tree's commit, digests of the
# patch series and of the variant's .config, the QEMU and compiler
# versions, and the run that booted it.
#
# A partial run (V=both) keeps the other variants' records from earlier
# runs in the same matrix.json and marks none of them afresh: each variant
# carries the provenance of the run that made it, the matrix names its
# latest run (run_id), and the report says which variants came from which
# run (sources) and never presents two as one.
#   run_provenance(top, tree, tarball, patchdir, qemu) -> the run's part
#   variant_provenance($run, build => out/build/V) -> one variant's record
#   project_commit($top) -> "sha[-dirty]" | "unknown"
#   sources($matrix) -> ({ run_id, project_commit, tree_commit, patch_digest,
#                          variants => [names], recorded => 0|1 }, ...),
#                       the latest run first
use strict;
use warnings;
use Exporter 'import';
use Digest::SHA;
use VMAB::File qw(slurp);
use VMAB::Report::Data qw(variant_names);

our @EXPORT_OK = qw(run_provenance variant_provenance project_commit sources $SCHEMA_VERSION);

# 1: no schema_version, no provenance; 2: both (this module).
our $SCHEMA_VERSION = 2;

sub git_out {
	my (@cmd) = @_;
	open(my $fh, '-|', 'git', @cmd) or return undef;
	local $/;
	my $out = <$fh> // '';
	close($fh) or return undef;
	$out =~ s/\s+\z//;
	return $out;
}

sub project_commit {
	my ($top) = @_;
	open(my $save, '>&', \*STDERR) or die "dup STDERR: $!\n";
	open(STDERR, '>', '/dev/null');
	my $head = git_out('-C', $top, 'rev-parse', 'HEAD');
	my $dirty = git_out('-C', $top, 'status', '--porcelain', '--untracked-files=no');
	open(STDERR, '>&', $save) or die "restore STDERR: $!\n";
	return 'unknown' unless defined $head && $head =~ /^[0-9a-f]{40}$/;
	return $head . (length($dirty // '') ? '-dirty' : '');
}

sub file_sha256 {
	my ($file) = @_;
	return undef unless -f $file;
	return Digest::SHA->new(256)->addfile($file)->hexdigest;
}

# The compiler that built the kernel, as the kernel itself records it.
sub compiler {
	my ($build) = @_;
	my ($c) = slurp("$build/include/generated/compile.h") =~ /LINUX_COMPILER\s+"([^"]*)"/;
	return $c // 'unknown';
}

sub run_provenance {
	my (%o) = @_;
	require VMAB::Tree;
	return {
		run_id => $o{run_id},
		project_commit => project_commit($o{top}),
		tree_commit => eval { VMAB::Tree::tree_commit($o{tree}) } // 'unknown',
		patch_digest => eval { VMAB::Tree::patch_digest($o{tarball}, $o{patchdir}) } // 'unknown',
		qemu_version => $o{qemu},
	};
}

# The variant's own: the tree it was built from (its build stamp, which a
# boot without a build keeps), its .config and compiler.
sub variant_provenance {
	my ($run, %o) = @_;
	my ($built) = slurp("$o{build}/.vmab-built") =~ /^tree (\S+)/m;
	return { %$run, (defined $built ? (tree_commit => $built) : ()),
		 config_sha256 => file_sha256("$o{build}/.config") // 'unknown',
		 compiler => compiler($o{build}) };
}

sub sources {
	my ($m) = @_;
	my (%by, @order);
	for my $v (variant_names($m)) {
		my $p = $m->{variants}{$v}{provenance};
		my $id = $p ? $p->{run_id} // '?' : '';
		push @order, $id unless $by{$id};
		$by{$id} //= { %{$p // {}}, run_id => $id, recorded => $p ? 1 : 0, variants => [] };
		push @{$by{$id}{variants}}, $v;
	}
	my $latest = $m->{run_id} // '';
	return map { $by{$_} } sort { ($b eq $latest) <=> ($a eq $latest) || $b cmp $a } @order;
}

1;
