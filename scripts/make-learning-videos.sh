#!/usr/bin/env bash
# Makes the demo training videos shipped in public/learning/ (areas §2 /learning; server/seed/learning.ts lists
# them). Run by hand when a video changes and commit the outputs: CI has no ffmpeg, the build only copies them.
#
# Each video is WebM (VP9 + Opus, what Debian's Chromium plays), 640×360 at 15 frames a second, 20 s: a title slide,
# then three steps, each a caption and a simple animated drawing of the screen it teaches, with a soft chime at every
# slide change. Each gets a poster JPEG (a frame of its title slide). blank.webm is the player's blank source
# (plyr's blankVideo), so nothing is fetched from a CDN.
#
# Needs ffmpeg with libvpx, libopus, drawtext (freetype + fontconfig) and the Noto Sans CJK SC font.
set -euo pipefail

OUT="$(cd "$(dirname "$0")/.." && pwd)/public/learning"
FONT="Noto Sans CJK SC"
DUR=20
W=640
H=360
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

if ! grep -q "$FONT" <(fc-list); then
  echo "make-learning-videos: the font '$FONT' is missing (apt-get install fonts-noto-cjk)" >&2
  exit 1
fi
BOLD_FILE="$(fc-match -f '%{file}' "$FONT:bold")"

BG=0x14202e
PANEL=0x1f3144
LINE=0x3a5068
ACCENT=0x3b82f6
OK=0x22c55e
WARN=0xf59e0b
FG=white
MUTED=0x9fb3c8

# A text line. $1 text, $2 x, $3 y, $4 size, $5 colour, $6 from (s), $7 to (s); optional $8 font (Bold).
txt() {
  local face="font='$FONT'"
  # fontconfig finds the regular face by name; the bold one is given by file (a style in the name draws boxes).
  [[ "${8:-}" == bold ]] && face="fontfile='$BOLD_FILE'"
  printf "drawtext=%s:expansion=none:text='%s':x=%s:y=%s:fontsize=%s:fontcolor=%s:enable='between(t,%s,%s)':alpha='min(1,(t-%s)/0.5)'," \
    "$face" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$6"
}
# A box. $1 x, $2 y, $3 w, $4 h, $5 colour, $6 thickness (fill or a number), $7 from, $8 to.
box() {
  printf "drawbox=x='%s':y='%s':w='%s':h='%s':color=%s:t=%s:enable='between(t,%s,%s)'," "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8"
}

# Common frame: a header line and the video's progress bar, plus the title slide (0–5 s) and the step captions.
frame() {
  local title="$1" subtitle="$2"
  box 0 0 $W 34 $PANEL fill 0 $DUR
  txt "影像工作站 · 培训  Workstation training" 16 8 14 $MUTED 0 $DUR
  box 0 $((H - 4)) "iw*t/$DUR" 4 $ACCENT fill 0 $DUR
  txt "$title" "(w-text_w)/2" 130 38 $FG 0 5 bold
  txt "$subtitle" "(w-text_w)/2" 190 22 $MUTED 0.4 5
  box "(iw-120)/2" 236 120 3 $ACCENT fill 0.8 5
}
# A step caption: $1 number, $2 Chinese, $3 English, $4 from, $5 to.
step() {
  box 24 50 30 30 $ACCENT fill "$4" "$5"
  txt "$1" 33 52 20 $FG "$4" "$5" bold
  txt "$2" 66 48 20 $FG "$4" "$5" bold
  txt "$3" 66 74 14 $MUTED "$4" "$5"
}
# A key cap: $1 label, $2 x, $3 y, $4 from, $5 to (it pulses once a second).
key() {
  box "$2" "$3" 74 34 $LINE fill "$4" "$5"
  printf "drawbox=x=%s:y=%s:w=74:h=34:color=%s:t=2:enable='between(t,%s,%s)*lt(mod(t,1),0.5)'," "$2" "$3" $ACCENT "$4" "$5"
  txt "$1" "$2+37-text_w/2" "$3+6" 16 $FG "$4" "$5" bold
}

worklist() {
  frame "工作列表与快捷键" "The worklist by keyboard"
  # Step 1: a table whose highlighted row walks down with J and up with K.
  step 1 "按 J / K 上下移动" "J and K move through the list" 5 10
  box 40 104 560 200 $PANEL fill 5 15
  local names=("CT 胸部平扫    王**   待书写" "MR 头颅增强    李**   草稿" "DX 胸部正位    赵**   待审核" "CT 腹部增强    陈**   已审核" "US 甲状腺      周**   待书写")
  local i
  for i in 0 1 2 3 4; do
    box 40 $((104 + i * 40)) 560 40 $LINE 1 5 15
    txt "${names[$i]}" 56 $((112 + i * 40)) 16 $FG 5 15
  done
  # The cursor: down two rows, then up one, in step with the key caps.
  box 40 "104+40*(gte(t,6.5)+gte(t,8)-gte(t,9.3))" 560 40 $ACCENT 3 5 15
  key J 520 52 5.6 8.6
  key K 520 52 8.8 10
  # Step 2: Enter opens the highlighted case.
  step 2 "回车打开报告" "Enter opens the report of the focused row" 10 15
  key Enter 520 52 10 15
  # The report slides in over the list.
  box "max(180,640-(t-11)*400)" 96 440 216 $PANEL fill 11 15
  box "max(180,640-(t-11)*400)" 96 440 216 $ACCENT 2 11 15
  txt "CT 胸部平扫  王**  报告 Report" 200 110 16 $FG 12.2 15
  box 200 146 "min(380,max(1,(t-12.6)*300))" 10 $LINE fill 12.6 15
  box 200 168 "min(300,max(1,(t-13.1)*300))" 10 $LINE fill 13.1 15
  # Step 3: the palette finds every command.
  step 3 "Ctrl+K 打开命令面板" "Ctrl+K opens the command palette" 15 20
  box 120 110 400 210 $PANEL fill 15 20
  box 120 110 400 210 $ACCENT 2 15 20
  box 136 124 368 34 $LINE fill 15.3 20
  txt "报告" 148 130 16 $FG 16 20
  box 136 170 368 32 $ACCENT fill 16.6 20
  txt "打开报告  Open report" 148 175 16 $FG 16.6 20
  txt "书写报告  Write report" 148 213 16 $MUTED 16.8 20
  txt "报告发布  Report publishing" 148 251 16 $MUTED 17 20
  txt "Esc" 474 286 14 $MUTED 17 20
}

report() {
  frame "书写与审核报告" "Writing and approving a report"
  # Step 1: typing the findings: lines grow one after the other.
  step 1 "书写所见与诊断" "Type the findings and the impression" 5 10
  box 40 104 560 220 $PANEL fill 5 20
  txt "所见 Findings" 56 112 15 $MUTED 5 20
  local i
  for i in 0 1 2; do
    box 56 $((142 + i * 22)) "min(480,max(1,(t-5.5-$i*1.3)*260))" 10 $LINE fill $((5 + i)).5 20
  done
  txt "诊断 Impression" 56 214 15 $MUTED 8 20
  box 56 244 "min(300,max(1,(t-8.5)*200))" 10 $LINE fill 8.5 20
  # Step 2: Ctrl+S keeps the draft; a toast says so.
  step 2 "Ctrl+S 保存草稿" "Ctrl+S saves the draft" 10 15
  key Ctrl+S 520 52 10 15
  box 400 274 190 40 $OK fill 11 14
  txt "已保存  Saved" 416 282 16 $FG 11 14
  # Step 3: submit, then approve: the status badge changes.
  step 3 "提交后由审核医生审核" "Submit, then a reviewer approves" 15 20
  box 440 112 144 30 $WARN fill 10 16.5
  txt "草稿  Draft" 452 116 15 0x1f2937 10 16.5
  box 440 112 144 30 $ACCENT fill 16.5 18
  txt "待审核  Pending" 452 116 15 $FG 16.5 18
  box 440 112 144 30 $OK fill 18 20
  txt "已审核  Approved" 452 116 15 $FG 18 20
  box 400 274 190 40 $ACCENT fill 15.5 20
  txt "审核通过  Approve" 414 282 16 $FG 15.5 20
}

calling() {
  frame "叫号" "Calling patients"
  # Step 1: the waiting queue of the day.
  step 1 "候诊队列" "The queue of the day, in check-in order" 5 10
  box 40 104 260 220 $PANEL fill 5 20
  local nums=("A001 王**" "A002 李**" "A003 赵**" "A004 陈**" "A005 周**")
  local i
  for i in 0 1 2 3 4; do
    box 40 $((104 + i * 44)) 260 44 $LINE 1 5 20
    txt "${nums[$i]}" 60 $((114 + i * 44)) 18 $FG 5 20
  done
  # Called rows grey out one by one.
  box 41 105 258 42 $BG fill 11 20
  txt "A001 已呼叫 called" 60 114 16 $MUTED 11 20
  box 41 149 258 42 $BG fill 16 20
  txt "A002 已呼叫 called" 60 158 16 $MUTED 16 20
  # Step 2: call the next one.
  step 2 "呼叫下一位" "Call next takes the first waiting patient" 10 15
  key N 520 52 10 15
  # Step 3: the waiting-room screen shows the number.
  step 3 "候诊屏与语音播报" "The waiting-room screen shows and speaks it" 15 20
  box 330 104 270 220 0x0b1220 fill 10.5 20
  box 330 104 270 220 $ACCENT 2 10.5 20
  txt "请到 CT 室  To CT room" 352 124 16 $MUTED 10.5 20
  txt "A001" 392 170 64 $WARN 10.5 16 bold
  txt "A002" 392 170 64 $WARN 16 20 bold
  # A level meter while the number is spoken.
  box 405 280 "60+50*abs(sin(t*7))" 6 $ACCENT fill 16 19
}

make() {
  local name="$1" chime
  local script="$WORK/$name.filter"
  { printf "[0:v]"; "$name" | sed 's/,$//'; printf "[v]"; } > "$script"
  # A soft chime (two sine tones fading out) at every slide change, silence between.
  chime="0.18*(sin(2*PI*880*t)+0.5*sin(2*PI*1320*t))*exp(-6*mod(t,5))"
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "color=c=$BG:s=${W}x${H}:r=15:d=$DUR" \
    -f lavfi -i "aevalsrc='$chime':s=48000:d=$DUR" \
    -filter_complex_script "$script" -map '[v]' -map 1:a \
    -c:v libvpx-vp9 -b:v 0 -crf 42 -g 30 -deadline good -cpu-used 2 -row-mt 1 -pix_fmt yuv420p \
    -c:a libopus -b:a 24k -ac 1 \
    "$OUT/$name.webm"
  ffmpeg -hide_banner -loglevel error -y -ss 3 -i "$OUT/$name.webm" -frames:v 1 -q:v 5 "$OUT/$name.jpg"
  echo "$name.webm $(stat -c %s "$OUT/$name.webm") bytes, $name.jpg $(stat -c %s "$OUT/$name.jpg") bytes"
}

make worklist
make report
make calling

# The blank source plyr switches to when a player is torn down.
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "color=c=black:s=64x36:r=1:d=1" \
  -c:v libvpx-vp9 -b:v 0 -crf 60 -pix_fmt yuv420p "$OUT/blank.webm"
echo "blank.webm $(stat -c %s "$OUT/blank.webm") bytes"
