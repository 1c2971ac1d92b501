#!/bin/sh
# Renders the app icon from its SVG sources into every file the app and its installers use.
# Needs rsvg-convert and ImageMagick's convert (Debian/Ubuntu: apt-get install librsvg2-bin imagemagick).
# Run from anywhere: sh scripts/make-icons.sh. Commit what it writes.
#
#   resources/icon.svg           the design (48 px and up)
#   resources/icon-small.svg     the same, redrawn for 32 px
#   resources/icon-16.svg        the same, drawn pixel by pixel for 16 px
#   resources/icons/NxN.png      16 32 48 64 128 256 512 (Linux packages, the window icon)
#   resources/icon.png           512 px (the Electron window; electron-builder's default name)
#   resources/icon.ico           16 to 256 px (the Windows executable and installer)
#   resources/web/favicon.ico    16, 32, 48 px (the browser shell's favicon; copied into the renderer build)
set -eu
cd "$(dirname "$0")/../resources"
for tool in rsvg-convert convert; do
  command -v "$tool" >/dev/null || { echo "make-icons: $tool is missing (apt-get install librsvg2-bin imagemagick)" >&2; exit 1; }
done

mkdir -p icons web
for size in 16 32 48 64 128 256 512; do
  case "$size" in
    16) source=icon-16.svg ;;
    32) source=icon-small.svg ;;
    *) source=icon.svg ;;
  esac
  rsvg-convert --width "$size" --height "$size" "$source" --output "icons/${size}x${size}.png"
done
cp icons/512x512.png icon.png

# No timestamps in the files, so rendering again changes nothing unless the design changed.
convert icons/16x16.png icons/32x32.png icons/48x48.png icons/64x64.png icons/128x128.png icons/256x256.png -define png:exclude-chunks=date,time icon.ico
convert icons/16x16.png icons/32x32.png icons/48x48.png -define png:exclude-chunks=date,time web/favicon.ico
echo "make-icons: wrote resources/icons/*.png, icon.png, icon.ico, web/favicon.ico"
