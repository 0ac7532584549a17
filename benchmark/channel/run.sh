#!/bin/sh
# Channel's figures (seed 004 section 5) into results/channel-*.md: Fig. 8, Fig. 9 (1 and
# 100 divs), Fig. 10 and the HTTP server (Table 3 into results/data/channel-table3.md, the
# throughput and the RSS check on stdout: results/channel.md quotes them), fork against
# vanilla; about 40 minutes.  FIGS="table3 fig9" runs some of them; the HTTP server needs wrk.
# FORK, VANILLA: the two rubies (default _install/bin/ruby, _vanilla/bin/ruby);
# the drivers themselves run on VANILLA.
set -e
cd "$(dirname "$0")/../.."
FORK=${FORK:-_install/bin/ruby}
VANILLA=${VANILLA:-_vanilla/bin/ruby}
FIGS=${FIGS:-table3 throughput fig8 fig9 fig10 http rss}
rubies="--fork $FORK --vanilla $VANILLA"
for fig in $FIGS; do
  echo "==> $fig"
  case $fig in
  table3) $VANILLA benchmark/channel/table3.rb $rubies --runs 3 --n 10000 --out results/data/channel-table3.md ;;
  throughput)
    for i in 1 2 3; do
      $FORK --disable-gems benchmark/channel/throughput.rb channel 1000000
      $VANILLA --disable-gems benchmark/channel/throughput.rb ractor 1000000
    done ;;
  fig8) $VANILLA benchmark/channel/fig8_driver.rb $rubies --runs 5 --target 0.2 --arrays 1,10,100,1000,10000,100000 \
      --strings 1,100,10000,1000000,10000000,100000000 --out results/channel-fig8.md ;;
  fig9)
    $VANILLA benchmark/channel/fig9_driver.rb $rubies --runs 5 --divs 1 --workers 1,2,4 \
      --parser parse_line --ractor-parser parser_block --out results/channel-fig9-1div.md
    $VANILLA benchmark/channel/fig9_driver.rb $rubies --runs 3 --divs 100 --workers 1,2,4 \
      --parser parse_line --ractor-parser parser_block --no-probe --out results/channel-fig9-100div.md ;;
  fig10) $VANILLA benchmark/channel/fig10.rb $rubies --runs 3 --n 20000 --keys 10000 --clients 1 --out results/channel-fig10.md ;;
  http) $VANILLA benchmark/channel/http.rb driver $rubies --runs 3 --duration 5 --out results/channel-http.md ;;
  rss) /usr/bin/time -v $FORK --disable-gems benchmark/channel/rss.rb 1000000 ;;
  *) echo "unknown figure: $fig" >&2; exit 1 ;;
  esac
done
