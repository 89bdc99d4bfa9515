"""Calibration data from a phone video: markers, camera pose, dice by colour, shots -> calibrator CSVs.

Needs the optional extra ``pip install 'jamsumo[video]'`` (OpenCV with cv2.aruco).
"""
