@echo off
rem `mnemo` for an installed desktop app on Windows (proposed: copied to <resources>\bin by electron-builder
rem extraResources): the terminal host's bundle run by the app's own runtime as plain Node. See scripts/desktop-shims/mnemo.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Mnemo.exe" "%~dp0..\app.asar\out\cli\main.js" %*
endlocal
