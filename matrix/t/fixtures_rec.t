# Recording the host tests' broken boots (vmab boot --fixtures,
# VMAB::Fixtures): which fixture gets which /init, and what is kept of
# the logs, with a stand-in QEMU.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(slurp spew);
use VMAB::Fixtures qw(record_fixtures fixture_init);

$VMAB::Log::QUIET = 1;
is(fixture_init('panic'), undef, 'panic: no /init');
is(fixture_init('bootfail'), undef, 'bootfail: no /init (the kernel is cut short)');
for my $n (qw(hang oom flood)) {
	like(fixture_init($n), qr/^#!\/bin\/busybox sh\n(?:.*\n)*say "\@\@vmab hello variant=fixture /,
	     "$n: /init says hello");
}
like(fixture_init('hang'), qr/^sleep 1000$/m, 'hang: then sleeps');
like(fixture_init('oom'), qr/^say '\@\@vmab done'$/m, 'oom: runs to the end');
like(fixture_init('oom'), qr/^sh -c 'echo \$\$ > \/tmp\/cg\/hog\/cgroup.procs; /m, 'oom: its shell variables unexpanded');

my $dir = tempdir(CLEANUP => 1);
spew("$dir/qemu", <<'EOS');
#!/bin/sh
n=0; k=
for a; do case $a in file:*) n=$((n+1)); eval "f$n=\${a#file:}";; esac; done
prev=; for a; do [ "$prev" = -kernel ] && k=$a; prev=$a; done
head -c 300000 /dev/zero | tr '\0' x > "$f1"
printf 'a\r\nb\r\n' > "$f2"
wc -c < "$k" >> "$f2"
EOS
chmod 0755, "$dir/qemu";
local $VMAB::Qemu::QEMU = "$dir/qemu";
spew("$dir/bzImage", 'k' x 400000);
is_deeply([record_fixtures(kernel => "$dir/bzImage", dir => "$dir/fx", names => ['hang', 'bootfail'])],
	  ['hang', 'bootfail'], 'two fixtures recorded');
is(length slurp("$dir/fx/hang.console"), 200000, 'the console cut at 200000 bytes');
is(slurp("$dir/fx/hang.results"), "a\nb\n400000\n", 'the results without carriage returns (the stand-in adds the kernel size)');
is(slurp("$dir/fx/bootfail.results"), "a\nb\n300000\n", 'bootfail boots the kernel cut at 300000 bytes');
eval { record_fixtures(kernel => "$dir/bzImage", dir => "$dir/fx", names => ['nope']) };
like($@, qr/no fixture 'nope'/, 'an unknown fixture');
done_testing;
